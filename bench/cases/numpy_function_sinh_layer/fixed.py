# summary: tf.math.sinh does the filtering inside TensorFlow
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(11)
x = rng.normal(size=(16, 4)).astype("float32")
y = rng.normal(size=(16, 2)).astype("float32")


class SinhFilter(tf.keras.layers.Layer):
    def call(self, inputs):
        return tf.math.sinh(inputs)


model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(4, name="pre"),
                             SinhFilter(name="sinh"),
                             tf.keras.layers.Dense(2, name="post")], name="filtered")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
grads = tape.gradient(loss, model.trainable_weights)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
