# summary: batch-hard triplet loss: pairwise distances, boolean same-label masks from integer labels, the hardest positive by reduce_max over a masked matrix and the hardest negative by reduce_min after adding the row maximum to positives, a @tf.function step
# source: https://omoindrot.github.io/triplet-loss
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(19)
rng = np.random.default_rng(19)
x = rng.normal(size=(16, 10)).astype("float32")
labels = np.repeat(np.arange(4), 4).astype("int32")
embed = keras.Sequential([keras.Input((10,)), layers.Dense(16, activation="relu", name="h"),
                          layers.Dense(8, name="e")], name="embedder")
opt = keras.optimizers.SGD(0.05)


def pairwise_dist(e):
    dot = tf.matmul(e, e, transpose_b=True)
    sq = tf.linalg.diag_part(dot)
    d = tf.expand_dims(sq, 0) - 2.0 * dot + tf.expand_dims(sq, 1)
    return tf.sqrt(tf.maximum(d, 0.0) + 1e-12)


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        dist = pairwise_dist(embed(xb))
        same = tf.equal(tf.expand_dims(yb, 0), tf.expand_dims(yb, 1))
        not_self = tf.logical_not(tf.cast(tf.eye(tf.shape(yb)[0]), tf.bool))
        pos_mask = tf.cast(tf.logical_and(same, not_self), tf.float32)
        neg_mask = tf.cast(tf.logical_not(same), tf.float32)
        hardest_pos = tf.reduce_max(pos_mask * dist, axis=1)
        max_row = tf.reduce_max(dist, axis=1, keepdims=True)
        hardest_neg = tf.reduce_min(dist + max_row * (1.0 - neg_mask), axis=1)
        loss = tf.reduce_mean(tf.maximum(hardest_pos - hardest_neg + 1.0, 0.0))
    grads = tape.gradient(loss, embed.trainable_weights)
    opt.apply_gradients(zip(grads, embed.trainable_weights))
    return grads


grads = step(tf.constant(x), tf.constant(labels))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
