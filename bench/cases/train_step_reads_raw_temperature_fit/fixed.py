# summary: the temperature is a Keras weight (add_weight), so it is one of the model's trainable variables and fit trains it
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
        self.temperature = self.add_weight(shape=(), initializer="ones",
                                           name="logit_temperature")

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
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(x, labels, epochs=2, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_variables))
assert len(model.trainable_variables) == 5
