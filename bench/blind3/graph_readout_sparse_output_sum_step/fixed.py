# summary: the per-graph sums come from tf.sparse.reduce_sum with a dense output (SparseReduceSum has a gradient), so the node embedding trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(14964)
node_features = rng.normal(size=(12, 4)).astype("float32")
src = rng.integers(0, 12, size=(20,))
dst = rng.integers(0, 12, size=(20,))
graph_of_edge = np.sort(rng.integers(0, 3, size=(20,)))
edge_slot = np.concatenate([np.arange(np.sum(graph_of_edge == g)) for g in range(3)])
edge_index = np.stack([graph_of_edge, edge_slot], axis=1).astype("int64")
targets = np.array([1.0, -0.5, 2.0], dtype="float32")

model = tf.keras.Sequential([tf.keras.Input((4,)),
                             tf.keras.layers.Dense(6, activation="tanh", name="node_embed")],
                            name="edge_scorer")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        h = model(node_features, training=True)
        scores = tf.reduce_sum(tf.gather(h, src) * tf.gather(h, dst), axis=-1)
        edges = tf.sparse.SparseTensor(edge_index, scores, dense_shape=[3, 20])
        per_graph = tf.sparse.reduce_sum(edges, axis=1)
        loss = tf.reduce_mean(tf.square(per_graph - targets))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step()
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
