# source: https://github.com/tensorflow/tensorflow/issues/61132
# cause: non-differentiable-op
# weights: edge_scorer/edge_score/kernel, edge_scorer/edge_score/bias
# mode: function
# summary: a graph layer scores the edges of two relations with a learned Dense, stores each relation as a SparseTensor and merges them with tf.sparse.maximum before a sparse-dense matmul; the registered gradient of SparseSparseMaximum is broken (it takes the wrong number of arguments), so the gradient call raises TypeError
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(61132)
n = 6
node_x = rng.normal(size=(n, 4)).astype("float32")
edges_a = np.array([[0, 1], [1, 2], [2, 3], [4, 5]], dtype="int64")
edges_b = np.array([[0, 1], [2, 3], [3, 4], [5, 0]], dtype="int64")
feat_a = rng.normal(size=(4, 3)).astype("float32")
feat_b = rng.normal(size=(4, 3)).astype("float32")
target = rng.normal(size=(n, 4)).astype("float32")

scorer = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, activation="sigmoid", name="edge_score")],
                             name="edge_scorer")


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        adj_a = tf.SparseTensor(edges_a, tf.reshape(scorer(feat_a), [-1]), [n, n])
        adj_b = tf.SparseTensor(edges_b, tf.reshape(scorer(feat_b), [-1]), [n, n])
        merged = tf.sparse.maximum(adj_a, adj_b)  # expect: non-differentiable-op primary
        out = tf.sparse.sparse_dense_matmul(merged, node_x)
        loss = tf.reduce_mean(tf.square(out - target))
    return tape.gradient(loss, scorer.trainable_variables)


try:
    train_step()
except TypeError as err:
    print("TypeError:", err)
