# summary: MoCo: query encoder trained by InfoNCE against a momentum key encoder and a queue of negatives held in a tf.Variable
# source: https://keras.io/examples/vision/nnclr/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(7)
x = np.random.default_rng(7).normal(size=(24, 12)).astype("float32")
K, D, B = 16, 6, 8


def encoder(name):
    return keras.Sequential([keras.Input((12,)), layers.Dense(16, activation="relu"), layers.Dense(D)], name=name)


q_enc, k_enc = encoder("query"), encoder("key")
k_enc.set_weights(q_enc.get_weights())
queue = tf.Variable(tf.math.l2_normalize(tf.random.normal((K, D)), axis=1), trainable=False)
ptr = tf.Variable(0, dtype=tf.int32, trainable=False)
opt = keras.optimizers.Adam(1e-3)


@tf.function
def step(batch):
    xq = batch + tf.random.normal(tf.shape(batch), stddev=0.1)
    xk = batch + tf.random.normal(tf.shape(batch), stddev=0.1)
    k = tf.math.l2_normalize(k_enc(xk), axis=1)
    with tf.GradientTape() as tape:
        q = tf.math.l2_normalize(q_enc(xq), axis=1)
        l_pos = tf.reduce_sum(q * tf.stop_gradient(k), axis=1, keepdims=True)
        l_neg = tf.matmul(q, queue, transpose_b=True)
        logits = tf.concat([l_pos, l_neg], axis=1) / 0.07
        labels = tf.zeros(tf.shape(logits)[0], dtype=tf.int64)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
    grads = tape.gradient(loss, q_enc.trainable_variables)
    opt.apply_gradients(zip(grads, q_enc.trainable_variables))
    for kw, qw in zip(k_enc.weights, q_enc.weights):
        kw.assign(0.999 * kw + 0.001 * qw)
    idx = (ptr + tf.range(B)) % K
    queue.scatter_nd_update(idx[:, None], k)
    ptr.assign((ptr + B) % K)
    return grads


for i in range(3):
    grads = step(tf.constant(x[i * B:(i + 1) * B]))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
