# source: https://github.com/tensorflow/tensorflow/issues/50661
# cause: not-watched
# rule: TM102
# weights: -
# mode: eager
# summary: the gradient of a conv2d output with respect to plain tensors that were never watched
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(18)
x_np = rng.integers(0, 10, size=(1, 4, 4, 1)).astype("float32")
w_np = rng.integers(0, 10, size=(3, 3, 1, 1)).astype("float32")
x = tf.constant(x_np)
w = tf.constant(w_np)  # expect: not-watched
with tf.GradientTape() as g:  # expect: not-watched primary
    y = tf.nn.conv2d(x, w, strides=1, padding="VALID")
    total = tf.reduce_sum(y)
dw = g.gradient(total, w)
print(dw)
