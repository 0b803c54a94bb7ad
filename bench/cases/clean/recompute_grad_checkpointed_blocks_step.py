# summary: gradient checkpointing: a residual block's forward wrapped in tf.recompute_grad inside a custom layer, custom tf.function loop
# source: https://www.tensorflow.org/api_docs/python/tf/recompute_grad
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(33)
rng = np.random.default_rng(33)
x = rng.normal(size=(16, 8)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")


class CheckpointedBlock(layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.d1 = layers.Dense(units, activation="relu")
        self.d2 = layers.Dense(units)

    def build(self, shape):
        self.d1.build(shape)
        self.d2.build((shape[0], self.d1.units))
        self._fwd = tf.recompute_grad(lambda t: t + self.d2(self.d1(t)))

    def call(self, t):
        return self._fwd(t)


inp = keras.Input((8,))
h = CheckpointedBlock(8)(inp)
h = CheckpointedBlock(8)(h)
model = keras.Model(inp, layers.Dense(1)(h))
opt = keras.optimizers.Adam(1e-2)


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(xb) - yb))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = step(tf.constant(x), tf.constant(y))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
