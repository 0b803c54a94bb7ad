# source: https://github.com/Justin-Tan/generative-compression/issues/51
# summary: a soft-to-hard quantizer layer: the hard (argmin) and rounded codes are bound to names, then used as x + tf.stop_gradient(hard - x), inside a Keras layer's call and a tf.function step
import numpy as np
import tensorflow as tf
from tensorflow import keras

tf.keras.utils.set_random_seed(0)


class SoftToHard(keras.layers.Layer):
    def __init__(self, centers, **kwargs):
        super().__init__(**kwargs)
        self.centers = tf.constant(centers, dtype="float32")

    def call(self, w):
        dist = tf.square(tf.expand_dims(w, -1) - self.centers)
        soft = tf.reduce_sum(tf.nn.softmax(-dist, axis=-1) * self.centers, axis=-1)
        index = tf.argmin(dist, axis=-1)
        hard = tf.gather(self.centers, index)
        rounded = tf.round(hard * 2.0) / 2.0
        code = rounded
        return soft + tf.stop_gradient(code - soft)


encoder = keras.layers.Dense(4, name="enc")
quantizer = SoftToHard([-1.0, -0.5, 0.0, 0.5, 1.0], name="q")
decoder = keras.layers.Dense(5, name="dec")
opt = keras.optimizers.SGD(0.1)


@tf.function
def step(batch):
    with tf.GradientTape() as tape:
        z = encoder(batch)
        z_hat = quantizer(z)
        loss = tf.reduce_mean(tf.square(decoder(z_hat) - batch))
    variables = encoder.trainable_variables + decoder.trainable_variables
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))
    return grads


rng = np.random.default_rng(1713)
grads = step(tf.constant(rng.normal(size=(16, 5)).astype("float32")))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
