# summary: a graph neural network layer: node features gathered by integer edge endpoints, messages summed per node with tf.math.unsorted_segment_sum and normalised by in-degree from tf.math.bincount, a @tf.function step
# source: https://keras.io/examples/graph/gnn_citations/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(28)
rng = np.random.default_rng(28)
n_nodes = 10
nodes = rng.normal(size=(n_nodes, 6)).astype("float32")
edges = rng.integers(0, n_nodes, size=(2, 30)).astype("int32")
y = rng.integers(0, 2, size=(n_nodes,)).astype("int32")
msg = layers.Dense(8, activation="relu", name="message")
upd = layers.Dense(8, activation="relu", name="update")
out = layers.Dense(2, name="out")
opt = keras.optimizers.Adam(1e-2)


@tf.function
def step(x, e, yb):
    with tf.GradientTape() as tape:
        src, dst = e[0], e[1]
        m = msg(tf.gather(x, src))
        agg = tf.math.unsorted_segment_sum(m, dst, num_segments=n_nodes)
        deg = tf.cast(tf.math.bincount(dst, minlength=n_nodes), tf.float32)
        agg = agg / tf.maximum(deg, 1.0)[:, None]
        h = upd(tf.concat([x, agg], axis=1))
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(yb, out(h)))
    weights = msg.trainable_weights + upd.trainable_weights + out.trainable_weights
    grads = tape.gradient(loss, weights)
    opt.apply_gradients(zip(grads, weights))
    return grads


grads = step(nodes, edges, y)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
