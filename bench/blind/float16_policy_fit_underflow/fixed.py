# summary: the "mixed_float16" policy keeps float32 weights and fit scales the loss, so every weight trains
import keras
import numpy as np

keras.utils.set_random_seed(0)
keras.mixed_precision.set_global_policy("mixed_float16")

rng = np.random.default_rng(4032)
x = rng.normal(size=(64, 8)).astype("float32")
y = np.tanh(x[:, :1]).astype("float32")
model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(16, activation="tanh", name="h"),
                          keras.layers.Dense(1, name="out")], name="small")
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse", loss_weights=1e-7)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
keras.mixed_precision.set_global_policy("float32")
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
