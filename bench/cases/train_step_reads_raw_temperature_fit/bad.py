# source: https://github.com/tensorflow/tensorflow/issues/60004
# cause: sources-mismatch
# rule: TM114
# weights: logit_temperature
# mode: fit
# summary: a Keras 3 classifier learns a temperature that its own train_step divides the logits by; the temperature is a raw tf.Variable set on the Model, which Keras 3 does not track, so self.trainable_variables leaves it out and fit never changes it
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(60004)
x = rng.normal(size=(128, 5)).astype("float32")
labels = (x[:, 0] - x[:, 2] > 0).astype("int32")


class TemperedClassifier(tf.keras.Model):
    def __init__(self):
        super().__init__(name="tempered")
        self.hidden = tf.keras.layers.Dense(8, activation="relu", name="hidden")
        self.logits = tf.keras.layers.Dense(2, name="logits")
        self.temperature = tf.Variable(1.0, name="logit_temperature")  # expect: sources-mismatch primary

    def call(self, inputs):
        return self.logits(self.hidden(inputs))

    def train_step(self, data):
        features, target = data
        with tf.GradientTape() as tape:
            scaled = self(features, training=True) / self.temperature
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
                target, scaled, from_logits=True))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


model = TemperedClassifier()
model.compile(optimizer=tf.keras.optimizers.Adam(0.05))
model(x[:2])
start = float(model.temperature.numpy())
model.fit(x, labels, epochs=2, batch_size=32, verbose=0)
print("temperature changed:", float(model.temperature.numpy()) != start)
