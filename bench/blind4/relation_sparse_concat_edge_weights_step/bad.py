# source: https://github.com/tensorflow/tensorflow/issues/6391
# cause: non-differentiable-op
# weights: edge_scorer/kernel, edge_scorer/bias
# mode: function
# summary: a two-relation graph model scores every edge with a learned Dense, packs each relation's scores into a SparseTensor and joins the two adjacency blocks with tf.sparse.concat before a sparse-dense matmul; SparseConcat is registered as not differentiable, so the node encoder and readout train while the edge scorer gets None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(6391)
n_nodes = 6
node_x = rng.normal(size=(n_nodes, 4)).astype("float32")
edges_a = np.array([[0, 1], [1, 2], [2, 3], [4, 5]], dtype="int64")
edges_b = np.array([[0, 3], [3, 5], [5, 1]], dtype="int64")
edge_feat_a = rng.normal(size=(4, 3)).astype("float32")
edge_feat_b = rng.normal(size=(3, 3)).astype("float32")
target = rng.normal(size=(1, 2)).astype("float32")

node_encoder = tf.keras.layers.Dense(5, activation="tanh", name="node_encoder")
edge_scorer = tf.keras.layers.Dense(1, activation="sigmoid", name="edge_scorer")
readout = tf.keras.layers.Dense(2, name="readout")
node_encoder.build((None, 4))
edge_scorer.build((None, 3))
readout.build((None, 5))
sources = (node_encoder.trainable_variables + edge_scorer.trainable_variables
           + readout.trainable_variables)
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        h = node_encoder(node_x)
        adj_a = tf.sparse.SparseTensor(edges_a, edge_scorer(edge_feat_a)[:, 0], (n_nodes, n_nodes))
        adj_b = tf.sparse.SparseTensor(edges_b, edge_scorer(edge_feat_b)[:, 0], (n_nodes, n_nodes))
        adj = tf.sparse.concat(1, [adj_a, adj_b])  # expect: non-differentiable-op primary
        messages = tf.sparse.sparse_dense_matmul(adj, tf.concat([h, h], axis=0))
        graph = tf.reduce_mean(messages + h, axis=0, keepdims=True)
        loss = tf.reduce_mean(tf.square(readout(graph) - target))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step()
print("grads are None:", [g is None for g in grads])
