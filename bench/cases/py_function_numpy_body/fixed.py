# summary: the py_function body stays in TensorFlow (tf.tanh), so its gradient is recorded
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(2)

rng = np.random.default_rng(12)
x = rng.normal(size=(8, 5)).astype("float32")
y = rng.normal(size=(8, 1)).astype("float32")


def squash(t):
    return tf.tanh(t)


def squash_layer(t):
    out = tf.py_function(squash, [t], tf.float32)
    out.set_shape(t.shape)
    return out


model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(3, name="embed"),
                             tf.keras.layers.Lambda(squash_layer, name="squash"),
                             tf.keras.layers.Dense(1, name="out")], name="facenet")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.abs(model(x) - y))
grads = tape.gradient(loss, model.trainable_weights)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
