# summary: straight-through Gumbel-softmax: a hard one-hot from tf.one_hot(tf.argmax(y_soft)) combined as stop_gradient(y_hard - y_soft) + y_soft, a discrete latent code decoded back, a @tf.function step
# source: https://arxiv.org/abs/1611.01144
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(26)
x = np.random.default_rng(26).normal(size=(16, 10)).astype("float32")
enc = keras.Sequential([keras.Input((10,)), layers.Dense(16, activation="relu"), layers.Dense(6)], name="enc")
dec = keras.Sequential([keras.Input((6,)), layers.Dense(16, activation="relu"), layers.Dense(10)], name="dec")
opt = keras.optimizers.Adam(1e-3)


def gumbel_softmax_st(logits, tau=0.5):
    u = tf.random.uniform(tf.shape(logits), 1e-9, 1.0)
    y_soft = tf.nn.softmax((logits - tf.math.log(-tf.math.log(u))) / tau)
    y_hard = tf.one_hot(tf.argmax(y_soft, axis=-1), tf.shape(logits)[-1])
    return tf.stop_gradient(y_hard - y_soft) + y_soft


@tf.function
def step(xb):
    with tf.GradientTape() as tape:
        code = gumbel_softmax_st(enc(xb))
        loss = tf.reduce_mean(tf.square(dec(code) - xb))
    weights = enc.trainable_weights + dec.trainable_weights
    grads = tape.gradient(loss, weights)
    opt.apply_gradients(zip(grads, weights))
    return grads


grads = step(tf.constant(x))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
