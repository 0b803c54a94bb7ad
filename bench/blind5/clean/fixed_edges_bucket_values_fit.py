# source: https://github.com/pytorch/pytorch/issues/7284
# summary: a calibration layer buckets its input with keras.ops.searchsorted against fixed, non-trainable edges and looks up a learned value per bucket (plus a learned linear term); the integer bucket index selects among learned values, which get their gradients through the lookup, so every trainable weight changes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(7284)
x = rng.uniform(0.0, 10.0, size=(128, 1)).astype("float32")
y = np.log1p(x).astype("float32")


class BucketCalibration(keras.layers.Layer):
    def build(self, input_shape):
        self.edges = self.add_weight(shape=(7,), name="edges", trainable=False,
                                     initializer=keras.initializers.Constant(np.linspace(1.0, 9.0, 7)))
        self.values = self.add_weight(shape=(8,), name="values", initializer="zeros")
        self.slope = self.add_weight(shape=(), name="slope", initializer="zeros")

    def call(self, inputs):
        bucket = keras.ops.searchsorted(self.edges, inputs[:, 0], side="right")
        return keras.ops.expand_dims(keras.ops.take(self.values, bucket), -1) + self.slope * inputs

    def compute_output_shape(self, input_shape):
        return (input_shape[0], 1)


model = keras.Sequential([keras.Input((1,)), BucketCalibration(name="bucket_cal")], name="bucketed")
model.compile(optimizer=keras.optimizers.Adam(5e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert len(before) == 2
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
