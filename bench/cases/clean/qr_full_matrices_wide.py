# summary: tf.linalg.qr(full_matrices=True) of a learned wide 3x5 matrix: QR's gradient is implemented when rows do not outnumber columns, so the weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(35)
features = tf.constant(rng.normal(size=(10, 3)).astype("float32"))
targets = tf.constant(rng.normal(size=(10, 5)).astype("float32"))
frame = tf.Variable(rng.normal(size=(3, 5)).astype("float32"), name="frame")

with tf.GradientTape() as tape:
    q, r = tf.linalg.qr(frame, full_matrices=True)
    loss = tf.reduce_mean(tf.square(tf.matmul(tf.matmul(features, q), r) - targets))
grads = tape.gradient(loss, [frame])
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
