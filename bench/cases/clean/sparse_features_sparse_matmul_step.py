# summary: a linear-then-MLP model over sparse one-hot features: a tf.SparseTensor of integer indices times a kernel through tf.sparse.sparse_dense_matmul, an eager custom loop
# source: https://www.tensorflow.org/guide/sparse_tensor
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(16)
n, d = 12, 40
rows = np.repeat(np.arange(n), 3)
cols = rng.integers(0, d, size=n * 3)
pairs = sorted(set(zip(rows.tolist(), cols.tolist())))
sp = tf.sparse.SparseTensor(indices=np.array(pairs, dtype="int64"),
                            values=np.ones(len(pairs), "float32"), dense_shape=(n, d))
y = tf.constant(rng.normal(size=(n, 1)).astype("float32"))
k1 = tf.Variable(rng.normal(size=(d, 8)).astype("float32") * 0.2, name="k1")
b1 = tf.Variable(np.zeros(8, "float32"), name="b1")
k2 = tf.Variable(rng.normal(size=(8, 1)).astype("float32") * 0.2, name="k2")
params = [k1, b1, k2]
opt = tf.keras.optimizers.SGD(0.1)
for _ in range(2):
    with tf.GradientTape() as tape:
        h = tf.nn.relu(tf.sparse.sparse_dense_matmul(sp, k1) + b1 + 0.1)
        loss = tf.reduce_mean(tf.square(tf.matmul(h, k2) - y))
    grads = tape.gradient(loss, params)
    opt.apply_gradients(zip(grads, params))
assert all(g is not None and float(tf.norm(tf.convert_to_tensor(g))) > 0 for g in grads)
