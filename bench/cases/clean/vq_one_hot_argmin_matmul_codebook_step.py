# source: https://keras.io/examples/generative/vq_vae/
# summary: a vector quantizer that picks codes by tf.argmin of the distances, turns them into one_hot encodings and multiplies by the codebook, with the straight-through trick, codebook and commitment losses, in a tf.function step
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
D, CODES = 4, 8
encoder = keras.Sequential([keras.Input((6,)), keras.layers.Dense(D)], name="enc")
decoder = keras.Sequential([keras.Input((D,)), keras.layers.Dense(6)], name="dec")
codebook = tf.Variable(tf.random.uniform((D, CODES)), name="codebook")
opt = keras.optimizers.Adam(1e-3)
x = tf.constant(np.random.default_rng(3).normal(size=(16, 6)), tf.float32)


@tf.function
def step(batch):
    with tf.GradientTape() as tape:
        z = encoder(batch)
        dist = (tf.reduce_sum(z ** 2, 1, keepdims=True) + tf.reduce_sum(codebook ** 2, 0)
                - 2 * tf.matmul(z, codebook))
        idx = tf.argmin(dist, axis=1)
        q = tf.matmul(tf.one_hot(idx, CODES), codebook, transpose_b=True)
        commitment = tf.reduce_mean((tf.stop_gradient(q) - z) ** 2)
        codebook_loss = tf.reduce_mean((q - tf.stop_gradient(z)) ** 2)
        q_st = z + tf.stop_gradient(q - z)
        loss = tf.reduce_mean((decoder(q_st) - batch) ** 2) + codebook_loss + 0.25 * commitment
    variables = encoder.trainable_variables + decoder.trainable_variables + [codebook]
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))
    return grads


grads = step(x)
assert all(g is not None for g in grads)
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
