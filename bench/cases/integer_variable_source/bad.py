# source: https://github.com/tensorflow/tensorflow/issues/27378
# cause: integer-dtype|sources-mismatch
# rule: TM202
# weights: slope
# mode: eager
# summary: the fitted parameters are created from integer literals, so they are int32 variables
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

xs = np.arange(8, dtype="float32")
ys = 3.0 * xs + 1.0
slope = tf.Variable(2, name="slope")  # expect: integer-dtype|sources-mismatch primary
intercept = tf.Variable(0.0, name="intercept")

with tf.GradientTape() as tape:
    pred = tf.cast(slope, tf.float32) * xs + intercept  # accept: integer-dtype
    loss = tf.reduce_mean((pred - ys) ** 2)
grads = tape.gradient(loss, [slope, intercept])  # accept: integer-dtype|sources-mismatch
print(grads)
