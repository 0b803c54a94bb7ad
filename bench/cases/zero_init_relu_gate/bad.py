# source: https://github.com/lucidrains/deep-cross-attention/issues/2
# cause: zero-at-runtime
# weights: grn/embed/kernel, grn/embed/bias, grn/gate/kernel
# mode: eager
# summary: a zero-initialised, bias-free projection followed by ReLU: the gate never opens
# lint: no (zero at run time: the zero initial weights close the ReLU gate)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(32)
x = rng.normal(size=(16, 6)).astype("float32")
y = rng.normal(size=(16, 2)).astype("float32")
model = tf.keras.Sequential([
    tf.keras.layers.Input((6,)),
    tf.keras.layers.Dense(4, name="embed"),
    tf.keras.layers.Dense(2, kernel_initializer="zeros",  # expect: zero-at-runtime primary
                          use_bias=False, activation="relu", name="gate"),
], name="grn")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
grads = tape.gradient(loss, model.trainable_variables)
print([float(tf.reduce_max(tf.abs(g))) for g in grads])
