# source: https://stats.stackexchange.com/questions/201961/do-i-apply-normalization-per-entire-dataset-per-input-vector-or-per-feature
# cause: zero-at-runtime
# weights: temperature_branch/kernel
# mode: fit
# summary: a two-input model standardises each input array per row (mean and std over axis=1) instead of per feature; the temperature input has a single column, so every standardised value is exactly 0, the temperature branch's kernel gets a zero gradient in every step and never changes under fit (its bias and the other branch train)
# lint: no (the axis of a NumPy standardisation is data preparation, not a graph operation)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(201961)
vibration = rng.normal(size=(96, 6)).astype("float32") * 3.0 + 1.0
temperature = rng.normal(40.0, 5.0, size=(96, 1)).astype("float32")
y = (0.3 * vibration[:, :1] + 0.1 * (temperature - 40.0)).astype("float32")


def standardise(a):
    return (a - a.mean(axis=1, keepdims=True)) / (a.std(axis=1, keepdims=True) + 1e-6)


vib_in, temp_in = standardise(vibration), standardise(temperature)  # expect: zero-at-runtime primary

v = keras.Input((6,), name="vibration")
t = keras.Input((1,), name="temperature")
merged = keras.layers.Concatenate()([keras.layers.Dense(8, activation="tanh", name="vibration_branch")(v),
                                     keras.layers.Dense(4, activation="tanh", name="temperature_branch")(t)])
model = keras.Model([v, t], keras.layers.Dense(1, name="wear_head")(merged), name="sensor_net")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit([vib_in, temp_in], y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights})
