# summary: domain-adversarial training (DANN): a gradient reversal layer built with tf.custom_gradient between the feature extractor and the domain classifier, fit on two heads
# source: https://www.tensorflow.org/api_docs/python/tf/custom_gradient
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(34)
rng = np.random.default_rng(34)
x = np.concatenate([rng.normal(size=(24, 6)), rng.normal(1.0, size=(24, 6))]).astype("float32")
label = rng.integers(0, 2, size=48)
domain = np.repeat([0.0, 1.0], 24).astype("float32")


@tf.custom_gradient
def reverse_gradient(t):
    def grad(dy):
        return -1.0 * dy
    return tf.identity(t), grad


class GradientReversal(layers.Layer):
    def call(self, t):
        return reverse_gradient(t)


inp = keras.Input((6,))
feat = layers.Dense(16, activation="relu", name="features")(inp)
cls = layers.Dense(2, name="label")(feat)
dom = layers.Dense(8, activation="relu", name="dom_hidden")(GradientReversal()(feat))
dom = layers.Dense(1, name="domain")(dom)
model = keras.Model(inp, {"label": cls, "domain": dom})
model.compile("adam", loss={"label": keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                            "domain": keras.losses.BinaryCrossentropy(from_logits=True)})
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, {"label": label, "domain": domain}, batch_size=12, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
