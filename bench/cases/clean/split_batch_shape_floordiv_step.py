# summary: a loss that splits a batch of paired embeddings in half with n = tf.shape(z)[0] // 2 and compares the halves (Barlow Twins style cross-correlation), the batch size cast to float as a divisor, a @tf.function step
# source: https://keras.io/examples/vision/barlow_twins/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(48)
x = np.random.default_rng(48).normal(size=(16, 10)).astype("float32")
net = keras.Sequential([keras.Input((10,)), layers.Dense(16, activation="relu", name="h"),
                        layers.Dense(8, name="z")], name="twins")
opt = keras.optimizers.Adam(1e-3)


@tf.function
def step(xb):
    pair = tf.concat([xb + tf.random.normal(tf.shape(xb), stddev=0.1),
                      xb * tf.random.uniform(tf.shape(xb), 0.8, 1.2)], axis=0)
    with tf.GradientTape() as tape:
        z = net(pair, training=True)
        n = tf.shape(z)[0] // 2
        za, zb = z[:n], z[n:]
        za = (za - tf.reduce_mean(za, 0)) / (tf.math.reduce_std(za, 0) + 1e-6)
        zb = (zb - tf.reduce_mean(zb, 0)) / (tf.math.reduce_std(zb, 0) + 1e-6)
        c = tf.matmul(za, zb, transpose_a=True) / tf.cast(n, tf.float32)
        on_diag = tf.reduce_sum(tf.square(tf.linalg.diag_part(c) - 1.0))
        off_diag = tf.reduce_sum(tf.square(c)) - tf.reduce_sum(tf.square(tf.linalg.diag_part(c)))
        loss = on_diag + 5e-3 * off_diag
    grads = tape.gradient(loss, net.trainable_weights)
    opt.apply_gradients(zip(grads, net.trainable_weights))
    return grads


grads = step(tf.constant(x))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
