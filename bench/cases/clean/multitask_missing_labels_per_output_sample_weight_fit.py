# summary: a two-output model where the second task's labels are missing for the first half of the data (its per-output sample weights are 0 there, on purpose), an unshuffled dataset of (x, y dict, sample_weight dict), fit
# source: https://keras.io/guides/training_with_built_in_methods/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(44)
rng = np.random.default_rng(44)
n = 96
x = rng.normal(size=(n, 5)).astype("float32")
y_a = (x @ rng.normal(size=(5, 1))).astype("float32")
y_b = rng.integers(0, 2, size=(n, 1)).astype("float32")
w_a = np.ones(n, dtype="float32")
w_b = np.ones(n, dtype="float32")
w_b[: n // 2] = 0.0
y_b[: n // 2] = 0.0
inp = keras.Input((5,), name="x")
h = layers.Dense(16, activation="relu", name="shared")(inp)
out_a = layers.Dense(1, name="reg")(h)
out_b = layers.Dense(1, activation="sigmoid", name="clf")(h)
model = keras.Model(inp, {"reg": out_a, "clf": out_b})
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss={"reg": "mse", "clf": "binary_crossentropy"})
ds = tf.data.Dataset.from_tensor_slices((x, {"reg": y_a, "clf": y_b}, {"reg": w_a, "clf": w_b})).batch(16)
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(ds, epochs=1, verbose=0, shuffle=False)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
