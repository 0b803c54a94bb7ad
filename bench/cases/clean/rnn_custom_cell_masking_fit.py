# summary: keras.layers.RNN over a custom minimal RNN cell, inputs padded with zeros and a Masking layer, the sequence lengths differing per example, fit
# source: https://keras.io/guides/working_with_rnns/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(43)
rng = np.random.default_rng(43)
x = rng.normal(size=(32, 7, 3)).astype("float32")
for i in range(32):
    x[i, rng.integers(3, 7):] = 0.0
y = rng.integers(0, 2, size=(32,))


class MinimalRNNCell(layers.Layer):
    def __init__(self, units, **kw):
        super().__init__(**kw)
        self.units = units
        self.state_size = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="glorot_uniform", name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), initializer="orthogonal", name="recurrent_kernel")

    def call(self, inputs, states):
        prev = states[0]
        h = tf.tanh(tf.matmul(inputs, self.kernel) + tf.matmul(prev, self.recurrent_kernel))
        return h, [h]


model = keras.Sequential([keras.Input((7, 3)), layers.Masking(0.0),
                          layers.RNN(MinimalRNNCell(8), name="rnn"),
                          layers.Dense(1, activation="sigmoid", name="out")])
model.compile("adam", "binary_crossentropy", metrics=["accuracy"])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=8, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
