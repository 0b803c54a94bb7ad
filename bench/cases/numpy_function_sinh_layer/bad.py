# source: https://github.com/cleverhans-lab/cleverhans/issues/432
# cause: numpy-function
# rule: TM302
# weights: filtered/pre/kernel, filtered/pre/bias
# mode: eager
# summary: a custom layer filters with NumPy's sinh through tf.numpy_function
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(11)
x = rng.normal(size=(16, 4)).astype("float32")
y = rng.normal(size=(16, 2)).astype("float32")


class SinhFilter(tf.keras.layers.Layer):
    def call(self, inputs):
        out = tf.numpy_function(np.sinh, [inputs], tf.float32)  # expect: numpy-function primary
        return tf.reshape(out, tf.shape(inputs))


model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(4, name="pre"),
                             SinhFilter(name="sinh"),
                             tf.keras.layers.Dense(2, name="post")], name="filtered")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
grads = tape.gradient(loss, model.trainable_weights)
print([g is None for g in grads])
