# source: https://keras.io/guides/making_new_layers_and_models_via_subclassing/
# summary: a custom normalisation layer that, in training, normalises with the batch statistics and updates non-trainable moving statistics with assign (a moving average of the batch mean and variance computed from the previous layer's output); the output uses the batch statistics, not the variables
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)


class SimpleBatchNorm(keras.layers.Layer):
    def build(self, input_shape):
        dim = input_shape[-1]
        self.gamma = self.add_weight(shape=(dim,), initializer="ones", name="gamma")
        self.beta = self.add_weight(shape=(dim,), initializer="zeros", name="beta")
        self.moving_mean = self.add_weight(shape=(dim,), initializer="zeros", trainable=False, name="moving_mean")
        self.moving_var = self.add_weight(shape=(dim,), initializer="ones", trainable=False, name="moving_var")

    def call(self, x, training=False):
        if training:
            mean, var = tf.nn.moments(x, axes=[0])
            self.moving_mean.assign(0.9 * self.moving_mean + 0.1 * mean)
            self.moving_var.assign(0.9 * self.moving_var + 0.1 * var)
        else:
            mean, var = self.moving_mean, self.moving_var
        return self.gamma * (x - mean) / tf.sqrt(var + 1e-5) + self.beta


model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, use_bias=False, name="d1"), SimpleBatchNorm(name="bn"),
                          keras.layers.ReLU(), keras.layers.Dense(1, name="d2")])
x = tf.constant(np.random.default_rng(70).normal(size=(16, 5)), tf.float32)
y = tf.constant(np.random.default_rng(71).normal(size=(16, 1)), tf.float32)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
