# summary: the custom train_step's loss is binary cross-entropy on the probabilities
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(58614)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x[:, :1] > 0).astype("float32")


class Counter(tf.keras.Model):
    def __init__(self):
        super().__init__(name="counter")
        self.h = tf.keras.layers.Dense(8, activation="relu", name="h")
        self.p = tf.keras.layers.Dense(1, activation="sigmoid", name="p")

    def call(self, inputs):
        return self.p(self.h(inputs))

    def train_step(self, data):
        features, labels = data
        with tf.GradientTape() as tape:
            prob = self(features, training=True)
            loss = tf.reduce_mean(tf.keras.losses.binary_crossentropy(labels, prob))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables, strict=False))
        return {"loss": loss}


model = Counter()
model.compile(optimizer="adam")
model(x[:1])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
