# source: https://github.com/pytorch/pytorch/issues/108956
# cause: zero-at-runtime
# weights: forecaster/sensor_mix/kernel, forecaster/sensor_mix/bias, forecaster/step_norm/gamma
# mode: fit
# summary: a forecaster mixes three sensors into one channel per time step and then applies LayerNormalization, whose default axis is the last one, of size 1; every normalised value is exactly 0, the layer outputs its beta, and in fit the mixing layer and the norm's gamma get exactly zero gradients and never change
# lint: no (zero at run time: only the channel count of 1 shows the normalisation is over a single value)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(108956)
readings = rng.normal(size=(128, 12, 3)).astype("float32")
next_value = readings[:, -3:, :].mean(axis=(1, 2))[:, None].astype("float32")

model = keras.Sequential([
    keras.Input((12, 3)),
    keras.layers.Dense(1, name="sensor_mix"),
    keras.layers.LayerNormalization(name="step_norm"),  # expect: zero-at-runtime primary
    keras.layers.Flatten(),
    keras.layers.Dense(1, name="forecast"),
], name="forecaster")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(readings, next_value, epochs=2, batch_size=32, verbose=0)
print("changed:", {w.path: bool(np.any(b != w.numpy()))
                   for b, w in zip(before, model.trainable_weights)})
