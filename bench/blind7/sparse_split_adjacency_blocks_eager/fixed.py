# summary: the column blocks are taken with tf.sparse.slice, which has a registered gradient for the values, so every edge-scorer weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(32215)
n = 6
edges = np.array([[0, 1], [1, 4], [2, 3], [3, 5], [4, 0], [5, 2], [1, 3], [2, 5]], dtype="int64")
edge_features = rng.normal(size=(len(edges), 3)).astype("float32")
node_features = rng.normal(size=(n, 4)).astype("float32")
target = rng.normal(size=(n, 4)).astype("float32")

scorer = keras.Sequential([keras.Input((3,)),
                           keras.layers.Dense(8, activation="relu", name="edge_hidden"),
                           keras.layers.Dense(1, activation="softplus", name="edge_weight")], name="edge_scorer")

with tf.GradientTape() as tape:
    weights = tf.reshape(scorer(edge_features, training=True), [-1])
    adjacency = tf.sparse.reorder(tf.SparseTensor(edges, weights, [n, n]))
    left = tf.sparse.slice(adjacency, [0, 0], [n, 3])
    right = tf.sparse.slice(adjacency, [0, 3], [n, 3])
    right = tf.SparseTensor(right.indices, right.values, [n, 3])
    out = tf.concat([tf.sparse.sparse_dense_matmul(left, node_features[:3]),
                     tf.sparse.sparse_dense_matmul(right, node_features[3:])], axis=1)
    loss = tf.reduce_mean(tf.square(out - tf.concat([target, target], axis=1)))
grads = tape.gradient(loss, scorer.trainable_variables)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
