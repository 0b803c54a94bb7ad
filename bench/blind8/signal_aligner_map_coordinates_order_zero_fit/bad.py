# source: https://www.geeksmental.com/question/how-to-train-deformable-convolutions
# cause: non-differentiable-op|integer-dtype
# rule: -
# weights: shift_net/kernel, shift_net/bias
# mode: fit
# summary: a signal aligner predicts a shift per trace and resamples the trace at the shifted positions with keras.ops.image.map_coordinates(order=0); order 0 rounds the coordinates to the nearest sample, so the shift network gets no gradient ("Gradients do not exist") and never changes under fit while the output head trains
# lint: no (map_coordinates is differentiable in its input at any order; only the coordinates are cut at order 0)
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
        return keras.ops.image.map_coordinates(signals, [rows, cols], order=0, fill_mode="nearest")  # expect: non-differentiable-op|integer-dtype primary


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
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights})
