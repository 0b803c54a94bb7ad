# summary: a hand-written scaled dot-product attention in a custom loop: the scale is 1 / np.sqrt(q.shape[-1]) and math.sqrt of the model width (static shapes, Python numbers), the batch size from len(logits), labels one-hot with np.eye inside the tape, eager
# source: https://www.tensorflow.org/text/tutorials/transformer
import math
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(73)
rng = np.random.default_rng(73)
x = tf.constant(rng.normal(size=(8, 5, 6)).astype("float32"))
y = rng.integers(0, 3, size=(8,))
wq, wk, wv = (layers.Dense(6, name=n) for n in ("wq", "wk", "wv"))
head = layers.Dense(3, name="head")
opt = keras.optimizers.Adam(1e-3)
d_model = 6
with tf.GradientTape() as tape:
    q, k, v = wq(x), wk(x), wv(x)
    scores = tf.matmul(q, k, transpose_b=True) / np.sqrt(q.shape[-1])
    h = tf.matmul(tf.nn.softmax(scores, axis=-1), v) * math.sqrt(d_model) / math.sqrt(d_model)
    logits = head(tf.reduce_mean(h, axis=1))
    n = len(logits)
    onehot = np.eye(3, dtype="float32")[y]
    loss = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(onehot, logits)) / n
    lr_now = float(opt.learning_rate.numpy())
weights = wq.trainable_weights + wk.trainable_weights + wv.trainable_weights + head.trainable_weights
grads = tape.gradient(loss, weights)
opt.apply_gradients(zip(grads, weights))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
