# summary: SimCLR NT-Xent: two augmented views, cosine similarities, the self-similarity diagonal pushed to -1e9 with tf.eye, integer positive indices from tf.range, sparse softmax cross-entropy, a @tf.function step
# source: https://keras.io/examples/vision/semisupervised_simclr/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(18)
x = np.random.default_rng(18).normal(size=(16, 12)).astype("float32")
encoder = keras.Sequential([keras.Input((12,)), layers.Dense(16, activation="relu", name="enc"),
                            layers.Dense(8, name="proj")], name="simclr")
opt = keras.optimizers.Adam(1e-3)
temperature = 0.1


@tf.function
def step(batch):
    n = tf.shape(batch)[0]
    v1 = batch + tf.random.normal(tf.shape(batch), stddev=0.2)
    v2 = batch * tf.random.uniform(tf.shape(batch), 0.7, 1.3)
    with tf.GradientTape() as tape:
        z = tf.math.l2_normalize(tf.concat([encoder(v1), encoder(v2)], axis=0), axis=1)
        sim = tf.matmul(z, z, transpose_b=True) / temperature
        sim = sim - 1e9 * tf.eye(2 * n)
        labels = tf.concat([tf.range(n, 2 * n), tf.range(0, n)], axis=0)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, sim))
    grads = tape.gradient(loss, encoder.trainable_weights)
    opt.apply_gradients(zip(grads, encoder.trainable_weights))
    return grads


grads = step(tf.constant(x))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
