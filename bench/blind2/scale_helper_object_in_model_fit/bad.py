# source: https://github.com/tensorflow/probability/issues/946
# cause: sources-mismatch
# weights: raw_scale
# mode: fit
# summary: a positive output scale is kept in a small helper object (a plain Python class holding a keras.Variable and applying softplus) stored on a Keras 3 Model; Keras tracks layers and variables, not arbitrary objects, so the scale is not a trainable weight and fit never changes it
# lint: yes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(946)
x = rng.normal(size=(96, 3)).astype("float32")
y = (4.0 * np.tanh(x @ np.array([[1.0], [0.5], [-1.0]], dtype="float32"))).astype("float32")


class PositiveScale:
    def __init__(self, initial):
        self.raw = keras.Variable(initial, name="raw_scale")  # accept: sources-mismatch

    def __call__(self):
        return keras.ops.softplus(self.raw)


class ScaledRegressor(keras.Model):
    def __init__(self):
        super().__init__(name="scaled_regressor")
        self.body = keras.layers.Dense(1, activation="tanh", name="body")
        self.scale = PositiveScale(0.5)  # expect: sources-mismatch primary

    def call(self, inputs):
        return self.body(inputs) * self.scale()


model = ScaledRegressor()
model.compile(optimizer=keras.optimizers.Adam(5e-2), loss="mse")
start = float(keras.ops.convert_to_numpy(model.scale.raw))
model.fit(x, y, epochs=3, batch_size=32, verbose=0)
print("trainable:", [w.path for w in model.trainable_weights])
print("scale changed:", float(keras.ops.convert_to_numpy(model.scale.raw)) != start)
