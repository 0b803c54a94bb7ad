# summary: the trace is resampled with order=1 (linear interpolation between neighbouring samples), which is differentiable in the coordinates, so the shift network changes under fit with the head
import keras
import numpy as np

keras.utils.set_random_seed(0)


class ShiftResample(keras.layers.Layer):
    def compute_output_shape(self, signals_shape, shift_shape):
        return signals_shape

    def call(self, signals, shift):
        length = signals.shape[1]
        rows = keras.ops.broadcast_to(keras.ops.arange(keras.ops.shape(signals)[0], dtype="float32")[:, None], keras.ops.shape(signals))
        cols = keras.ops.arange(length, dtype="float32")[None, :] + shift
        return keras.ops.image.map_coordinates(signals, [rows, cols], order=1, fill_mode="nearest")


rng = np.random.default_rng(3)
t = np.linspace(0.0, 6.0, 24, dtype="float32")
lags = rng.uniform(-2.0, 2.0, size=(64, 1)).astype("float32")
traces = np.sin(t[None, :] + lags).astype("float32")
reference = np.sin(t)[None, :].repeat(64, axis=0).astype("float32")

inputs = keras.Input((24,))
shift = keras.layers.Dense(1, name="shift_net")(inputs)
aligned = ShiftResample(name="resample")(inputs, shift)
output = keras.layers.Dense(24, name="align_head")(aligned)
model = keras.Model(inputs, output, name="aligner")
model.compile(optimizer="adam", loss="mse")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(traces, reference, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights}
assert len(changed) == 4 and all(changed.values()), changed
