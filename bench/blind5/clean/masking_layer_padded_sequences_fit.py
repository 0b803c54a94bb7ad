# source: https://github.com/keras-team/keras/issues/7878
# summary: variable-length sequences are zero-padded at the end and a keras.layers.Masking(mask_value=0.0) layer tells the LSTM to skip the padded steps; some steps of every sequence are real, so the LSTM and the head train and every weight changes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(7878)
lengths = rng.integers(3, 11, size=96)
x = rng.normal(size=(96, 10, 2)).astype("float32")
for i, n in enumerate(lengths):
    x[i, n:] = 0.0
y = np.array([x[i, :n, 0].sum() for i, n in enumerate(lengths)], dtype="float32")[:, None]

model = keras.Sequential([keras.Input((10, 2)), keras.layers.Masking(mask_value=0.0, name="pad_mask"),
                          keras.layers.LSTM(8, name="mask_lstm"), keras.layers.Dense(1, name="mask_head")],
                         name="masked_rnn")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
assert len(before) == 5
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
