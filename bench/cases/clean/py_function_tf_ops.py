# summary: tf.py_function whose body only uses TensorFlow ops (its gradient is recorded)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(105)
x = rng.normal(size=(8, 3)).astype("float32")
y = rng.normal(size=(8, 2)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((3,)), tf.keras.layers.Dense(2, name="d")],
                            name="pyf")


def smooth(t):
    return tf.math.log1p(tf.exp(t))


with tf.GradientTape() as tape:
    out = tf.py_function(smooth, [model(x)], tf.float32)
    loss = tf.reduce_mean(tf.square(out - y))
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
