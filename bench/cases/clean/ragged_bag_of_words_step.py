# summary: variable-length token lists as a tf.RaggedTensor: an embedding table gathered with the ragged ids, a ragged reduce_mean per example, a dense classifier, a @tf.function step with an input_signature
# source: https://www.tensorflow.org/guide/ragged_tensor
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(15)
table = tf.Variable(rng.normal(size=(50, 8)).astype("float32") * 0.1, name="table")
w = tf.Variable(rng.normal(size=(8, 3)).astype("float32") * 0.3, name="w")
opt = tf.keras.optimizers.Adam(1e-2)
lists = [rng.integers(0, 50, size=rng.integers(1, 7)).tolist() for _ in range(10)]
ids = tf.ragged.constant(lists, dtype=tf.int64)
y = tf.constant(rng.integers(0, 3, size=(10,)).astype("int64"))


@tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int64), tf.TensorSpec([None], tf.int64)])
def step(ids, y):
    with tf.GradientTape() as tape:
        vecs = tf.ragged.map_flat_values(tf.gather, table, ids)
        doc = tf.reduce_mean(vecs, axis=1)
        logits = tf.matmul(doc, w)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
    grads = tape.gradient(loss, [table, w])
    opt.apply_gradients(zip(grads, [table, w]))
    return grads


gt, gw = step(ids, y)
assert gt is not None and float(tf.norm(tf.convert_to_tensor(gt))) > 0
assert gw is not None and float(tf.norm(gw)) > 0
