# source: https://www.tensorflow.org/api_docs/python/tf/nn/max_pool_with_argmax
# summary: SegNet-style max unpooling: tf.nn.max_pool_with_argmax returns the pooled values (differentiable) and int64 argmax positions, and the decoder scatters the pooled values back with tf.scatter_nd at those integer positions
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
enc = keras.layers.Conv2D(4, 3, padding="same", activation="relu", name="enc")
dec = keras.layers.Conv2D(2, 3, padding="same", name="dec")
x = tf.constant(np.random.default_rng(30).random((2, 8, 8, 3)), tf.float32)
y = tf.constant(np.random.default_rng(31).random((2, 8, 8, 2)), tf.float32)
enc(x)
dec(tf.zeros((2, 8, 8, 4)))


def unpool(pooled, argmax, shape):
    flat = tf.reshape(pooled, [-1])
    idx = tf.reshape(argmax, [-1, 1])
    return tf.reshape(tf.scatter_nd(idx, flat, [tf.reduce_prod(shape)]), shape)


with tf.GradientTape() as tape:
    h = enc(x)
    pooled, argmax = tf.nn.max_pool_with_argmax(h, 2, 2, "VALID", include_batch_in_index=True)
    up = unpool(pooled, argmax, tf.shape(h, out_type=tf.int64))
    loss = tf.reduce_mean(tf.square(dec(up) - y))
variables = enc.trainable_variables + dec.trainable_variables
grads = tape.gradient(loss, variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
