# source: https://github.com/fabio-deep/Distributed-Pytorch-Boilerplate/issues/1
# summary: ReZero residual blocks (x + alpha * F(x), alpha initialised to 0) trained by fit: the branch layers get exact zeros on the first step only, then alpha moves and every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1)
x = rng.normal(size=(128, 6)).astype("float32")
y = np.sin(x[:, :1]) + 0.5 * x[:, 1:2] ** 2


class ReZeroBlock(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.inner = tf.keras.layers.Dense(6, activation="relu", name="inner")
        self.proj = tf.keras.layers.Dense(6, name="proj")

    def build(self, input_shape):
        self.alpha = self.add_weight(shape=(), initializer="zeros", name="alpha")

    def call(self, inputs):
        return inputs + self.alpha * self.proj(self.inner(inputs))


model = tf.keras.Sequential([tf.keras.Input((6,)), ReZeroBlock(name="block1"),
                             ReZeroBlock(name="block2"), tf.keras.layers.Dense(1, name="out")],
                            name="rezero")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 12
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
