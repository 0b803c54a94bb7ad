# summary: a ReLU with threshold=0.5 (a thresholded ReLU, on purpose) zeroes the units below it on this batch, but enough pre-activations are above it that every weight gets a gradient and fit changes all of them
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(5)
x = rng.normal(size=(64, 5)).astype("float32")
y = np.abs(x[:, :2]).sum(axis=1, keepdims=True).astype("float32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(16, name="tr_hidden"),
                          keras.layers.ReLU(threshold=0.5, name="tr_act"),
                          keras.layers.Dense(1, name="tr_out")], name="thresholded")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
