# summary: the calibration interpolates linearly between learned keypoints (a sum of clipped ramps), so the output depends smoothly on the keypoints as well as on the segment values and every weight changes
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
        ramps = keras.ops.clip(inputs - self.keypoints, 0.0, 1.0)
        return self.values[0] + keras.ops.sum(ramps * (self.values[1:] - self.values[:-1]), axis=-1, keepdims=True)


model = keras.Sequential([keras.Input((1,)), PWLCalibration(name="pwl")], name="calibrated")
model.compile(optimizer=keras.optimizers.Adam(5e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert len(before) == 2
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
