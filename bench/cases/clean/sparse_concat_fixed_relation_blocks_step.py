# summary: a two-relation graph layer joins two fixed sparse adjacency blocks with tf.sparse.concat before the tape and multiplies the result with node features a Dense computed inside it; SparseConcat sees no weight, and every weight gets a gradient through the sparse-dense matmul
# source: https://www.tensorflow.org/api_docs/python/tf/sparse/concat
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)
rng = np.random.default_rng(3)
n = 4
node_x = rng.normal(size=(2 * n, 3)).astype("float32")
target = rng.normal(size=(n, 2)).astype("float32")
rel_a = tf.SparseTensor([[0, 1], [1, 2], [2, 3], [3, 0]], [1.0, 1.0, 1.0, 1.0], [n, n])
rel_b = tf.SparseTensor([[0, 2], [1, 3], [3, 1]], [0.5, 0.5, 0.5], [n, n])
adjacency = tf.sparse.concat(1, [rel_a, rel_b])

encoder = keras.Sequential([keras.Input((3,)),
                            keras.layers.Dense(2, activation="tanh", name="node_dense")],
                           name="node_encoder")


@tf.function
def step(features):
    with tf.GradientTape() as tape:
        messages = tf.sparse.sparse_dense_matmul(adjacency, encoder(features))
        loss = tf.reduce_mean(tf.square(messages - target))
    return tape.gradient(loss, encoder.trainable_variables)


grads = step(node_x)
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
