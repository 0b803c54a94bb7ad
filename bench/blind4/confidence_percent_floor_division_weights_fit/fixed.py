# summary: the confidence percentage is turned into a fractional sample weight with true division (confidence_pct / 100), so the weighted loss is non-zero and fit changes every weight
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(13113)
features = rng.normal(size=(160, 5)).astype("float32")
rating = (features @ rng.normal(size=(5, 1))).astype("float32")
confidence_pct = rng.integers(40, 100, size=(160,))

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="relu", name="rater_hidden"),
                          keras.layers.Dense(1, name="rater_score")], name="annotated")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
sample_weight = (confidence_pct / 100).astype("float32")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(features, rating, sample_weight=sample_weight, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
