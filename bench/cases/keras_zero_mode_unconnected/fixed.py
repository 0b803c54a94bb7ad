# summary: the interior term that uses model_hr is part of the loss, so both models are connected
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(25)
boundary = rng.normal(size=(8, 2)).astype("float32")
interior = rng.normal(size=(8, 2)).astype("float32")
model_lr = tf.keras.Sequential([tf.keras.layers.Input((2,)), tf.keras.layers.Dense(1, name="lr")],
                               name="model_lr")
model_hr = tf.keras.Sequential([tf.keras.layers.Input((2,)), tf.keras.layers.Dense(1, name="hr")],
                               name="model_hr")

with tf.GradientTape() as tap:
    lb = tf.reduce_mean(tf.square(model_lr(boundary)))
    li = tf.reduce_mean(tf.square(model_hr(interior) - model_lr(interior)))
    loss = lb + li
gb = tap.gradient(loss, [model_lr.trainable_variables, model_hr.trainable_variables],
                  unconnected_gradients=tf.UnconnectedGradients.ZERO)
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for group in gb for g in group)
