# summary: a graph layer scores the edges of two relations with a learned Dense, stores each relation as a SparseTensor, merges them with tf.sparse.add (whose gradient reaches both value vectors) and multiplies node features by the merged adjacency; every weight gets a gradient
# source: https://www.tensorflow.org/api_docs/python/tf/sparse/add
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(5)
rng = np.random.default_rng(5)
n = 6
node_x = rng.normal(size=(n, 4)).astype("float32")
edges_a = np.array([[0, 1], [1, 2], [2, 3], [4, 5]], dtype="int64")
edges_b = np.array([[0, 1], [2, 3], [3, 4], [5, 0]], dtype="int64")
feat_a = rng.normal(size=(4, 3)).astype("float32")
feat_b = rng.normal(size=(4, 3)).astype("float32")
target = rng.normal(size=(n, 4)).astype("float32")

scorer = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, activation="sigmoid", name="score")],
                             name="scorer")


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        adj_a = tf.SparseTensor(edges_a, tf.reshape(scorer(feat_a), [-1]), [n, n])
        adj_b = tf.SparseTensor(edges_b, tf.reshape(scorer(feat_b), [-1]), [n, n])
        merged = tf.sparse.add(adj_a, adj_b)
        out = tf.sparse.sparse_dense_matmul(merged, node_x)
        loss = tf.reduce_mean(tf.square(out - target))
    return tape.gradient(loss, scorer.trainable_variables)


grads = train_step()
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
