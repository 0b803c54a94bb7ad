# summary: a sliced Wasserstein loss: generated and real samples projected on random directions, each projection sorted with tf.sort (the values, which carry a gradient) and compared, a generator trained in a @tf.function step
# source: https://arxiv.org/abs/1803.11188
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(58)
real = np.random.default_rng(58).normal(loc=2.0, size=(32, 4)).astype("float32")
gen = keras.Sequential([keras.Input((3,)), layers.Dense(16, activation="relu", name="g1"),
                        layers.Dense(4, name="g2")], name="gen")
opt = keras.optimizers.Adam(1e-3)


@tf.function
def step(xr):
    z = tf.random.normal((tf.shape(xr)[0], 3))
    dirs = tf.math.l2_normalize(tf.random.normal((4, 8)), axis=0)
    with tf.GradientTape() as tape:
        fake = gen(z, training=True)
        pf = tf.sort(tf.matmul(fake, dirs), axis=0)
        pr = tf.sort(tf.matmul(xr, dirs), axis=0)
        loss = tf.reduce_mean(tf.square(pf - pr))
    grads = tape.gradient(loss, gen.trainable_weights)
    opt.apply_gradients(zip(grads, gen.trainable_weights))
    return grads


grads = step(tf.constant(real))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
