# summary: a binarised activation layer: tf.grad_pass_through(tf.sign) so the backward pass is the identity, between two Dense layers, compiled and fit
# source: https://www.tensorflow.org/api_docs/python/tf/grad_pass_through
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(17)
rng = np.random.default_rng(17)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x.sum(axis=1, keepdims=True) > 0).astype("float32")


class BinaryActivation(layers.Layer):
    def call(self, inputs):
        return tf.grad_pass_through(tf.sign)(inputs)


model = keras.Sequential([keras.Input((5,)), layers.Dense(8, name="pre"), BinaryActivation(name="binarize"),
                          layers.Dense(1, name="out")], name="bnn")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=keras.losses.BinaryCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
