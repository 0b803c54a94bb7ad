# summary: the tape watches the filter tensor before the convolution
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(18)
x_np = rng.integers(0, 10, size=(1, 4, 4, 1)).astype("float32")
w_np = rng.integers(0, 10, size=(3, 3, 1, 1)).astype("float32")
x = tf.constant(x_np)
w = tf.constant(w_np)
with tf.GradientTape() as g:
    g.watch(w)
    y = tf.nn.conv2d(x, w, strides=1, padding="VALID")
    total = tf.reduce_sum(y)
dw = g.gradient(total, w)
assert dw is not None and float(tf.reduce_max(tf.abs(dw))) > 0
