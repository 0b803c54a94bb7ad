# summary: the head reads both directions (concatenated), so the forward and the backward LSTM are on the loss path and every weight changes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(386)
x = rng.normal(size=(64, 10, 3)).astype("float32")
y = x[:, -3:, 0].sum(axis=1, keepdims=True).astype("float32")

inputs = keras.Input((10, 3))
fwd, bwd = keras.layers.Bidirectional(keras.layers.LSTM(6), merge_mode=None, name="bi_enc")(inputs)
outputs = keras.layers.Dense(1, name="bi_head")(keras.layers.Concatenate()([fwd, bwd]))
model = keras.Model(inputs, outputs, name="bi_model")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
assert len(before) == 8
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
