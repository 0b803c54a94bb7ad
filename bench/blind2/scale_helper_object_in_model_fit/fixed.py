# summary: the raw scale is a weight of the model (add_weight), so fit trains it with the body
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(946)
x = rng.normal(size=(96, 3)).astype("float32")
y = (4.0 * np.tanh(x @ np.array([[1.0], [0.5], [-1.0]], dtype="float32"))).astype("float32")


class ScaledRegressor(keras.Model):
    def __init__(self):
        super().__init__(name="scaled_regressor")
        self.body = keras.layers.Dense(1, activation="tanh", name="body")
        self.raw_scale = self.add_weight(name="raw_scale", shape=(),
                                         initializer=keras.initializers.Constant(0.5))

    def call(self, inputs):
        return self.body(inputs) * keras.ops.softplus(self.raw_scale)


model = ScaledRegressor()
model(x[:1])
model.compile(optimizer=keras.optimizers.Adam(5e-2), loss="mse")
before = [keras.ops.convert_to_numpy(w).copy() for w in model.trainable_weights]
model.fit(x, y, epochs=3, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 3
assert all(np.any(b != keras.ops.convert_to_numpy(w))
           for b, w in zip(before, model.trainable_weights, strict=True))
