# summary: the pooling mask keeps the positions that are not padding (not_equal), so the real tokens are summed and fit changes every weight
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(18416)
tokens = rng.integers(1, 30, size=(64, 7))
labels = (tokens.sum(axis=1) % 2).astype("int32")


class MaskedSum(keras.layers.Layer):
    def call(self, features, tokens):
        keep = keras.ops.cast(keras.ops.not_equal(tokens, 0), features.dtype)
        return keras.ops.sum(features * keep[..., None], axis=1)


inputs = keras.Input((7,), dtype="int32")
features = keras.layers.Dense(5, activation="tanh", name="sq_proj")(keras.layers.Embedding(30, 4, name="sq_embed")(inputs))
outputs = keras.layers.Dense(2, name="sq_head")(MaskedSum(name="sq_pool")(features, inputs))
model = keras.Model(inputs, outputs, name="seq_clf")
model.compile(optimizer=keras.optimizers.Adam(1e-2),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(tokens, labels, epochs=1, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
