# summary: the angle error is wrapped with tf.math.floormod, which has a registered gradient (1 with respect to the dividend), so every weight gets a gradient
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
        wrapped = tf.math.floormod(diff + math.pi, 2.0 * math.pi) - math.pi
        loss = tf.reduce_mean(tf.square(wrapped))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, heading)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
