# source: https://github.com/keras-team/keras-core/pull/326
# summary: a Sequential text classifier declares its input keras.Input(dtype="int32") for token ids, which Keras converts to int32 before the Embedding looks them up; the ids are data, not learned, and every weight trains in fit
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(326)
ids = rng.integers(0, 20, size=(64, 6)).astype("float32")  # ids that arrive as floats
labels = (ids[:, 0] > 9).astype("float32")[:, None]

model = keras.Sequential([keras.Input((6,), dtype="int32"),
                          keras.layers.Embedding(20, 4, name="tok_embed"),
                          keras.layers.GlobalAveragePooling1D(name="tok_pool"),
                          keras.layers.Dense(1, activation="sigmoid", name="tok_out")],
                         name="tokens")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(ids, labels, epochs=2, batch_size=16, verbose=0)
changed = [bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)]
assert all(changed), changed
print("ok", changed)
