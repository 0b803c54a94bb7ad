# summary: the attention mask marks the real tokens (not_equal(ids, 0)), the Keras convention, so attention depends on the scores and every weight changes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(120488)
ids = rng.integers(1, 30, size=(64, 8))
y = (ids[:, 0] > ids[:, -1]).astype("float32")[:, None]

inputs = keras.Input((8,), dtype="int32")
h = keras.layers.Embedding(30, 8, name="enc_embed")(inputs)
keep = keras.ops.expand_dims(keras.ops.not_equal(inputs, 0), 1)
h = keras.layers.MultiHeadAttention(num_heads=2, key_dim=4, name="enc_mha")(h, h, attention_mask=keep)
outputs = keras.layers.Dense(1, activation="sigmoid", name="enc_head")(keras.layers.GlobalAveragePooling1D()(h))
model = keras.Model(inputs, outputs, name="encoder")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(ids, y, epochs=1, batch_size=16, verbose=0)
assert len(before) == 11
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
