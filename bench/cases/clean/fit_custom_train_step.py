# summary: model.fit with a subclassed Model whose train_step uses its own GradientTape
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(112)
x = rng.normal(size=(64, 4)).astype("float32")
y = rng.normal(size=(64, 1)).astype("float32")


class Regressor(tf.keras.Model):
    def __init__(self):
        super().__init__(name="regressor")
        self.h = tf.keras.layers.Dense(8, activation="relu", name="h")
        self.out = tf.keras.layers.Dense(1, name="out")

    def call(self, inputs):
        return self.out(self.h(inputs))

    def train_step(self, data):
        features, target = data
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self(features, training=True) - target))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables, strict=False))
        return {"loss": loss}


model = Regressor()
model.compile(optimizer="sgd")
model(x[:1])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
