# summary: BinaryConnect: a Dense layer whose kernel is binarised by tf.sign inside a tf.custom_gradient function that passes the gradient straight through (clipped to |w| <= 1), a @tf.function step
# source: https://github.com/itayhubara/BinaryNet.tf
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(13)
rng = np.random.default_rng(13)
x = rng.normal(size=(32, 8)).astype("float32")
y = rng.integers(0, 2, size=(32,))


@tf.custom_gradient
def binarize(w):
    def grad(dy):
        return dy * tf.cast(tf.abs(w) <= 1.0, dy.dtype)
    return tf.sign(w), grad


class BinaryDense(layers.Layer):
    def __init__(self, units, **kw):
        super().__init__(**kw)
        self.units = units

    def build(self, shape):
        self.kernel = self.add_weight(shape=(shape[-1], self.units), initializer="glorot_uniform",
                                      name="kernel")
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros", name="bias")

    def call(self, x):
        return tf.matmul(x, binarize(self.kernel)) + self.bias


model = keras.Sequential([keras.Input((8,)), BinaryDense(16, name="bin1"), layers.BatchNormalization(),
                          layers.Activation("tanh"), layers.Dense(2, name="out")])
opt = keras.optimizers.Adam(1e-3)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        loss = loss_fn(yb, model(xb, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = step(x, y)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
