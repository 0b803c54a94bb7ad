# summary: with no pretrained matrix to protect, the embedding is left trainable, and every weight changes under fit
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(53080)
ids = rng.integers(1, 40, size=(64, 10)).astype("int32")
y = (ids[:, :3].mean(axis=1) > 20).astype("float32")[:, None]

model = keras.Sequential([keras.Input((10,), dtype="int32"),
                          keras.layers.Embedding(40, 8, name="word_embedding"),
                          keras.layers.GlobalAveragePooling1D(),
                          keras.layers.Dense(8, activation="relu", name="review_hidden"),
                          keras.layers.Dense(1, activation="sigmoid", name="review_label")], name="review_model")
model.compile(optimizer="adam", loss="binary_crossentropy")
before = {w.path: w.numpy().copy() for w in model.weights}
model.fit(ids, y, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.weights}
assert len(changed) == 5 and all(changed.values()), changed
