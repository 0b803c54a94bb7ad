# source: https://github.com/tensorflow/tensorflow/issues/6365
# cause: non-differentiable-op
# weights: heading_net/heading_hidden/kernel, heading_net/heading_hidden/bias, heading_net/heading_angle/kernel, heading_net/heading_angle/bias
# mode: function
# summary: a heading regressor wraps the angle error into [-pi, pi) with tf.truncatemod (C-style remainder, ported from a C++ reference) before squaring it; TruncateMod has no registered gradient, so tape.gradient in the traced step raises LookupError
# lint: yes
import math

import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(6365)
x = rng.normal(size=(32, 5)).astype("float32")
heading = rng.uniform(-math.pi, math.pi, size=(32, 1)).astype("float32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(16, activation="tanh", name="heading_hidden"),
                          keras.layers.Dense(1, name="heading_angle")], name="heading_net")


@tf.function
def train_step(features, angle):
    with tf.GradientTape() as tape:
        diff = model(features, training=True) - angle
        wrapped = tf.truncatemod(diff + 3.0 * math.pi, 2.0 * math.pi) - math.pi  # expect: non-differentiable-op primary
        loss = tf.reduce_mean(tf.square(wrapped))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, heading)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(model.trainable_variables, grads)})
