# source: https://github.com/keras-team/keras/issues/9130
# cause: host-round-trip|numpy-function
# weights: facenet/embed/kernel, facenet/embed/bias
# mode: eager
# summary: a tf.py_function layer whose body leaves TensorFlow through .numpy() and np.tanh
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(2)

rng = np.random.default_rng(12)
x = rng.normal(size=(8, 5)).astype("float32")
y = rng.normal(size=(8, 1)).astype("float32")


def squash(t):
    return tf.constant(np.tanh(t.numpy()))  # expect: host-round-trip primary


def squash_layer(t):
    out = tf.py_function(squash, [t], tf.float32)  # accept: numpy-function|host-round-trip
    out.set_shape(t.shape)
    return out


model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(3, name="embed"),
                             tf.keras.layers.Lambda(squash_layer, name="squash"),
                             tf.keras.layers.Dense(1, name="out")], name="facenet")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.abs(model(x) - y))
grads = tape.gradient(loss, model.trainable_weights)
print([None if g is None else float(tf.reduce_sum(tf.abs(g))) for g in grads])
