# source: https://arxiv.org/abs/1602.07868
# summary: weight normalisation written by hand: a layer's kernel is g * v / ||v|| with tf.norm over the direction variable v and a scale g, in a custom step; the norm's gradient to v is orthogonal to v but not zero
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)


class WeightNormDense(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.v = self.add_weight(shape=(input_shape[-1], self.units), name="v",
                                 initializer="glorot_uniform")
        self.g = self.add_weight(shape=(self.units,), name="g", initializer="ones")
        self.b = self.add_weight(shape=(self.units,), name="b", initializer="zeros")

    def call(self, x):
        kernel = self.g * self.v / tf.norm(self.v, axis=0, keepdims=True)
        return tf.matmul(x, kernel) + self.b


model = keras.Sequential([keras.Input((5,)), WeightNormDense(8, name="wn1"), keras.layers.ReLU(),
                          WeightNormDense(1, name="wn2")])
x = tf.constant(np.random.default_rng(28).normal(size=(16, 5)), tf.float32)
y = tf.constant(np.random.default_rng(29).normal(size=(16, 1)), tf.float32)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
