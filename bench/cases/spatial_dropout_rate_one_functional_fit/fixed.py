# mode: fit
# summary: the same classifier with a SpatialDropout1D rate of 0.2 (the fraction of channels to drop): every weight trains
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(9141)
tokens = rng.integers(1, 50, size=(80, 12)).astype("int32")
labels = (tokens[:, :4].mean(axis=1) > 25).astype("float32")[:, None]
channel_drop = 0.2

words = keras.Input((12,), dtype="int32")
vectors = keras.layers.Embedding(50, 8, name="tok_embed")(words)
mixed = keras.layers.Conv1D(8, 3, padding="same", activation="relu", name="tok_conv")(vectors)
kept = keras.layers.SpatialDropout1D(channel_drop, name="tok_drop")(mixed)
pooled = keras.layers.GlobalAveragePooling1D()(kept)
score = keras.layers.Dense(1, activation="sigmoid", name="tok_out")(pooled)
model = keras.Model(words, score, name="tagger")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(tokens, labels, epochs=1, batch_size=40, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
