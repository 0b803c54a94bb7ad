# source: https://github.com/tensorflow/lattice/issues/49
# cause: non-differentiable-op|integer-dtype
# weights: calibrated/pwl/keypoints
# mode: fit
# summary: a home-made piecewise-constant calibration layer learns both its input keypoints and the output value of each segment, and finds a value's segment with keras.ops.searchsorted(keypoints, x); the segment index is an integer, so the learned keypoints reach the loss only through a bucket index, get no gradient and never change while the segment values train
# lint: yes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(49)
x = rng.uniform(0.0, 10.0, size=(128, 1)).astype("float32")
y = np.sqrt(x).astype("float32")


class PWLCalibration(keras.layers.Layer):
    def build(self, input_shape):
        self.keypoints = self.add_weight(shape=(7,), name="keypoints",
                                         initializer=keras.initializers.Constant(np.linspace(1.0, 9.0, 7)))
        self.values = self.add_weight(shape=(8,), name="values", initializer="zeros")

    def call(self, inputs):
        segment = keras.ops.searchsorted(self.keypoints, inputs[:, 0], side="right")  # expect: non-differentiable-op|integer-dtype primary
        return keras.ops.expand_dims(keras.ops.take(self.values, segment), -1)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], 1)


model = keras.Sequential([keras.Input((1,)), PWLCalibration(name="pwl")], name="calibrated")
model.compile(optimizer=keras.optimizers.Adam(5e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
