# summary: a bag-of-embeddings classifier multiplies each position by a padding mask (tokens != 0) before pooling; the padded positions get exact zeros, the real ones train, and fit changes every weight
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(7)
tokens = rng.integers(1, 20, size=(64, 8))
lengths = rng.integers(3, 9, size=(64,))
tokens[np.arange(8)[None, :] >= lengths[:, None]] = 0
labels = (tokens[:, 0] % 2).astype("int32")


class MaskedPool(keras.layers.Layer):
    def call(self, embedded, tokens):
        keep = keras.ops.cast(keras.ops.not_equal(tokens, 0), embedded.dtype)
        return keras.ops.sum(embedded * keep[..., None], axis=1)


inputs = keras.Input((8,), dtype="int32")
embedded = keras.layers.Embedding(20, 6, name="pad_embed")(inputs)
pooled = MaskedPool(name="pad_pool")(embedded, inputs)
outputs = keras.layers.Dense(2, name="pad_head")(pooled)
model = keras.Model(inputs, outputs, name="pad_mask")
model.compile(optimizer=keras.optimizers.Adam(1e-2),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(tokens, labels, epochs=1, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
