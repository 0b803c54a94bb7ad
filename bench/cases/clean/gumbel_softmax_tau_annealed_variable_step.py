# source: https://arxiv.org/abs/1611.01144
# summary: a categorical VAE's Gumbel-softmax relaxation (soft samples, no straight-through) whose temperature is a non-trainable tf.Variable annealed by assign between epochs of a tf.function step; noise from tf.random.uniform, argmax only for logging the codes
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
K, N = 4, 3  # categories, latent variables
encoder = keras.Sequential([keras.Input((8,)), keras.layers.Dense(16, activation="relu"),
                            keras.layers.Dense(N * K)], name="encoder")
decoder = keras.Sequential([keras.Input((N * K,)), keras.layers.Dense(16, activation="relu"),
                            keras.layers.Dense(8)], name="decoder")
tau = tf.Variable(1.0, trainable=False, name="tau")
opt = keras.optimizers.Adam(1e-3)
x = tf.constant(np.random.default_rng(0).random((32, 8)), tf.float32)


def gumbel_softmax(logits, temperature):
    u = tf.random.uniform(tf.shape(logits), minval=1e-9, maxval=1.0)
    g = -tf.math.log(-tf.math.log(u))
    return tf.nn.softmax((logits + g) / temperature, axis=-1)


@tf.function
def step(batch):
    with tf.GradientTape() as tape:
        logits = tf.reshape(encoder(batch), [-1, N, K])
        z = gumbel_softmax(logits, tau)
        recon = decoder(tf.reshape(z, [-1, N * K]))
        q = tf.nn.softmax(logits)
        kl = tf.reduce_sum(q * (tf.math.log(q + 1e-10) - tf.math.log(1.0 / K)), axis=[1, 2])
        loss = tf.reduce_mean(tf.reduce_sum(tf.square(recon - batch), -1) + kl)
    variables = encoder.trainable_variables + decoder.trainable_variables
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))
    codes = tf.argmax(logits, -1)  # for logging only
    return grads, codes


for epoch in range(3):
    grads, codes = step(x)
    tau.assign(max(0.5, float(np.exp(-0.3 * (epoch + 1)))))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
