# summary: the pricing layer keeps the float dtype (the count estimate stays a float the estimator can learn from); every weight changes in fit
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(272)
baskets = rng.normal(size=(96, 5)).astype("float32")
totals = (np.abs(baskets[:, :2]).sum(axis=1, keepdims=True) * 4.0).astype("float32")


class UnitPrice(keras.layers.Layer):
    def build(self, input_shape):
        self.price = self.add_weight(shape=(1,), initializer="ones", name="price",
                                     dtype="float32")

    def call(self, counts):
        return keras.ops.cast(counts, "float32") * self.price


model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="relu", name="count_hidden"),
                          keras.layers.Dense(1, activation="softplus", name="count_estimate"),
                          UnitPrice(name="unit_price")],
                         name="basket")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(baskets, totals, epochs=2, batch_size=32, verbose=0)
changed = [bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)]
assert all(changed), changed
print("ok", changed)
