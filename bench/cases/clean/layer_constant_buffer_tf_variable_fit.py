# summary: a Keras layer that keeps fixed normalisation statistics in a non-trainable tf.Variable attribute (a buffer, not a weight) and a trainable kernel from add_weight, fit
# source: https://www.tensorflow.org/guide/intro_to_modules
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(62)
rng = np.random.default_rng(62)
x = (rng.normal(size=(48, 5)) * 10 + 3).astype("float32")
y = rng.normal(size=(48, 1)).astype("float32")


class Standardized(layers.Layer):
    def __init__(self, mean, std, units, **kw):
        super().__init__(**kw)
        self.stats = tf.Variable(np.stack([mean, std]).astype("float32"), trainable=False, name="stats")
        self.units = units

    def build(self, shape):
        self.kernel = self.add_weight(shape=(shape[-1], self.units), initializer="glorot_uniform", name="kernel")

    def call(self, x):
        return tf.matmul((x - self.stats[0]) / self.stats[1], self.kernel)


model = keras.Sequential([keras.Input((5,)), Standardized(x.mean(0), x.std(0), 8, name="std_dense"),
                          layers.Activation("tanh"), layers.Dense(1, name="out")])
model.compile("adam", "mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=16, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
