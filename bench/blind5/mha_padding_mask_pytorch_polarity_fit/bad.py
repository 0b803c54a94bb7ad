# source: https://github.com/pytorch/pytorch/issues/120488
# cause: zero-at-runtime
# weights: enc_mha/query/kernel, enc_mha/query/bias, enc_mha/key/kernel, enc_mha/key/bias
# mode: fit
# summary: a text encoder ported from PyTorch passes its key-padding mask (True = padding, the PyTorch convention) as Keras MultiHeadAttention's attention_mask, where True means attend; with no padding in the batch every position is masked, the softmax is uniform whatever the scores, and the query and key projections get exactly zero gradients: fit never changes them
# lint: no (the mask polarity is a value: both comparisons are valid code)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(120488)
ids = rng.integers(1, 30, size=(64, 8))
y = (ids[:, 0] > ids[:, -1]).astype("float32")[:, None]

inputs = keras.Input((8,), dtype="int32")
h = keras.layers.Embedding(30, 8, name="enc_embed")(inputs)
pad = keras.ops.expand_dims(keras.ops.equal(inputs, 0), 1)  # expect: zero-at-runtime primary
h = keras.layers.MultiHeadAttention(num_heads=2, key_dim=4, name="enc_mha")(h, h, attention_mask=pad)
outputs = keras.layers.Dense(1, activation="sigmoid", name="enc_head")(keras.layers.GlobalAveragePooling1D()(h))
model = keras.Model(inputs, outputs, name="encoder")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(ids, y, epochs=1, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
