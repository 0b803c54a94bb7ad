# summary: stochastic depth (drop path) in a transformer-style block: a per-example binary keep mask made with tf.floor(keep_prob + tf.random.uniform(...)), the residual branch divided by keep_prob and multiplied by the mask, fit
# source: https://keras.io/examples/vision/cct/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(36)
rng = np.random.default_rng(36)
x = rng.normal(size=(32, 6, 8)).astype("float32")
y = rng.integers(0, 2, size=(32,))


class StochasticDepth(layers.Layer):
    def __init__(self, drop_prob, **kw):
        super().__init__(**kw)
        self.drop_prob = drop_prob

    def call(self, x, training=None):
        if training:
            keep_prob = 1 - self.drop_prob
            shape = (tf.shape(x)[0],) + (1,) * (len(x.shape) - 1)
            random_tensor = keep_prob + tf.random.uniform(shape, 0, 1)
            random_tensor = tf.floor(random_tensor)
            return (x / keep_prob) * random_tensor
        return x


inp = keras.Input((6, 8))
h = layers.LayerNormalization(name="ln1")(inp)
h = layers.MultiHeadAttention(2, 4, name="mha")(h, h)
h = layers.Add()([inp, StochasticDepth(0.1)(h)])
r = layers.Dense(8, activation="gelu", name="mlp")(layers.LayerNormalization(name="ln2")(h))
h = layers.Add()([h, StochasticDepth(0.1)(r)])
out = layers.Dense(2, name="cls")(layers.GlobalAveragePooling1D()(h))
model = keras.Model(inp, out)
model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=8, epochs=2, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
