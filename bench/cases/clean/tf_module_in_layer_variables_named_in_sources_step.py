# source: https://www.tensorflow.org/guide/intro_to_modules
# summary: a Keras 3 layer keeps a tf.Module of raw tf.Variables (a learned per-feature affine) that Keras does not track; the custom step knows it and adds the module's trainable_variables to the layer's own in the sources and in apply_gradients, so every variable trains
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)


class FeatureAffine(tf.Module):
    def __init__(self, width):
        super().__init__(name="feature_affine")
        self.scale = tf.Variable(tf.ones((width,)), name="scale")
        self.shift = tf.Variable(tf.zeros((width,)), name="shift")


class AffineThenDense(keras.layers.Layer):
    def __init__(self, width, **kwargs):
        super().__init__(**kwargs)
        self.affine = FeatureAffine(width)
        self.out = keras.layers.Dense(1, name="out")

    def call(self, x):
        return self.out(x * self.affine.scale + self.affine.shift)


layer = AffineThenDense(5, name="affine_dense")
opt = keras.optimizers.Adam(1e-2)
x = tf.constant(np.random.default_rng(81).normal(size=(16, 5)), tf.float32)
y = tf.constant(np.random.default_rng(82).normal(size=(16, 1)), tf.float32)
layer(x)
variables = layer.trainable_variables + list(layer.affine.trainable_variables)


@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(layer(x) - y))
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))
    return grads


grads = step()
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
