# source: https://github.com/tensorflow/tensorflow/issues/32215
# cause: non-differentiable-op
# weights: edge_scorer/edge_hidden/kernel, edge_scorer/edge_hidden/bias, edge_scorer/edge_weight/kernel, edge_scorer/edge_weight/bias
# mode: eager
# summary: a graph model scores its edges, builds a SparseTensor adjacency from the scores and splits it into two column blocks with tf.sparse.split before aggregating each block; SparseSplit has no registered gradient, so tape.gradient raises LookupError
# lint: yes
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
    left, right = tf.sparse.split(sp_input=adjacency, num_split=2, axis=1)  # expect: non-differentiable-op primary
    out = tf.concat([tf.sparse.sparse_dense_matmul(left, node_features[:3]),
                     tf.sparse.sparse_dense_matmul(right, node_features[3:])], axis=1)
    loss = tf.reduce_mean(tf.square(out - tf.concat([target, target], axis=1)))
grads = tape.gradient(loss, scorer.trainable_variables)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(scorer.trainable_variables, grads)})
