# summary: a residual block scales a tanh branch by a gate that starts at zero (ReZero): the branch gets exact zeros on the first step only, the gate trains at once, and fit trains every weight
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(5)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.normal(size=(64, 6)).astype("float32")


class GatedResidual(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.branch = tf.keras.layers.Dense(input_shape[-1], activation="tanh", name="branch")
        self.gate = self.add_weight(shape=(), initializer="zeros", name="gate")

    def call(self, inputs):
        return inputs + self.gate * self.branch(inputs)


model = tf.keras.Sequential([tf.keras.Input((6,)), GatedResidual(name="block"),
                             tf.keras.layers.Dense(6, name="out")], name="rezero")
model.compile(optimizer="sgd", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
