# summary: the single-channel sequence is normalised over its time axis (LayerNormalization(axis=1)), which has 12 values, so the normalised series depends on the mixing layer and fit changes every weight
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(108956)
readings = rng.normal(size=(128, 12, 3)).astype("float32")
next_value = readings[:, -3:, :].mean(axis=(1, 2))[:, None].astype("float32")

model = keras.Sequential([
    keras.Input((12, 3)),
    keras.layers.Dense(1, name="sensor_mix"),
    keras.layers.LayerNormalization(axis=1, name="step_norm"),
    keras.layers.Flatten(),
    keras.layers.Dense(1, name="forecast"),
], name="forecaster")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(readings, next_value, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 6
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
