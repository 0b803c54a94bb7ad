# summary: a graph step scores the edges of two relations with a learned Dense, stores each as a SparseTensor and merges them with tf.sparse.add (SparseAdd has a gradient for both value vectors) before a sparse-dense matmul; the edge scorer trains
# source: https://www.tensorflow.org/api_docs/python/tf/sparse/add
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(17)
rng = np.random.default_rng(17)
n = 6
node_x = rng.normal(size=(n, 4)).astype("float32")
edges_a = np.array([[0, 1], [1, 2], [2, 3], [4, 5]], dtype="int64")
edges_b = np.array([[0, 2], [2, 4], [3, 4], [5, 1]], dtype="int64")
feat_a = rng.normal(size=(4, 3)).astype("float32")
feat_b = rng.normal(size=(4, 3)).astype("float32")
target = rng.normal(size=(n, 4)).astype("float32")

scorer = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, activation="sigmoid", name="pair_score")],
                             name="pair_scorer")


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        adj_a = tf.SparseTensor(edges_a, tf.reshape(scorer(feat_a), [-1]), [n, n])
        adj_b = tf.SparseTensor(edges_b, tf.reshape(scorer(feat_b), [-1]), [n, n])
        merged = tf.sparse.reorder(tf.sparse.add(adj_a, adj_b))
        out = tf.sparse.sparse_dense_matmul(merged, node_x)
        loss = tf.reduce_mean(tf.square(out - target))
    return tape.gradient(loss, scorer.trainable_variables)


grads = train_step()
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
