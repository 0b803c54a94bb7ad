# source: https://github.com/itayhubara/BinaryNet.tf/issues/8
# cause: zero-at-runtime
# weights: binnet/bin/kernel
# mode: eager
# summary: a binarised layer uses tf.sign(kernel) without a straight-through estimator
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(30)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")


class BinaryDense(tf.keras.layers.Dense):
    def call(self, inputs):
        clipped = tf.clip_by_value(self.kernel, -1.0, 1.0)
        binary_kernel = tf.sign(clipped)  # expect: zero-at-runtime primary
        return tf.matmul(inputs, binary_kernel)


model = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                             BinaryDense(4, use_bias=False, name="bin"),
                             tf.keras.layers.Dense(1, name="out")], name="binnet")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
grads = tape.gradient(loss, model.trainable_variables)
print([float(tf.reduce_max(tf.abs(g))) for g in grads])
