# summary: straight-through estimator: the forward pass uses sign(), the backward pass identity
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(30)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")


class BinaryDense(tf.keras.layers.Dense):
    def call(self, inputs):
        clipped = tf.clip_by_value(self.kernel, -1.0, 1.0)
        binary_kernel = clipped + tf.stop_gradient(tf.sign(clipped) - clipped)
        return tf.matmul(inputs, binary_kernel)


model = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                             BinaryDense(4, use_bias=False, name="bin"),
                             tf.keras.layers.Dense(1, name="out")], name="binnet")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
