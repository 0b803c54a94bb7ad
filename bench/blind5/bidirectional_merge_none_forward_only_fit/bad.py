# source: https://github.com/keras-team/keras-io/pull/386
# cause: not-connected
# weights: bi_enc/backward_lstm/lstm_cell/kernel, bi_enc/backward_lstm/lstm_cell/recurrent_kernel, bi_enc/backward_lstm/lstm_cell/bias
# mode: fit
# summary: a sequence regressor wraps its LSTM in Bidirectional(merge_mode=None) to get the two directions separately, then feeds only the forward summary to the head; the backward LSTM is built and counted in trainable_weights but its output reaches no loss, so fit warns that gradients do not exist for it and it never changes
# lint: yes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(386)
x = rng.normal(size=(64, 10, 3)).astype("float32")
y = x[:, -3:, 0].sum(axis=1, keepdims=True).astype("float32")

inputs = keras.Input((10, 3))
fwd, bwd = keras.layers.Bidirectional(keras.layers.LSTM(6), merge_mode=None, name="bi_enc")(inputs)
outputs = keras.layers.Dense(1, name="bi_head")(fwd)  # expect: not-connected primary
model = keras.Model(inputs, outputs, name="bi_model")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
