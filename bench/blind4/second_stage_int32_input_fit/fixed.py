# summary: the pricing model's input is declared float32 (the estimator outputs a real-valued count), so the gradient crosses into the estimator and fit changes every weight of both stages
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(20058)
orders = rng.normal(size=(128, 6)).astype("float32")
revenue = (orders[:, :2].sum(axis=1, keepdims=True) * 3.0).astype("float32")

estimator = keras.Sequential([keras.Input((6,)),
                              keras.layers.Dense(8, activation="relu", name="est_hidden"),
                              keras.layers.Dense(1, name="est_units")], name="estimator")
units = keras.Input((1,), dtype="float32", name="units")
price_hidden = keras.layers.Dense(4, activation="relu", name="price_hidden")(units)
pricing = keras.Model(units, keras.layers.Dense(1, name="price_out")(price_hidden), name="pricing")

order_in = keras.Input((6,))
model = keras.Model(order_in, pricing(estimator(order_in)), name="two_stage")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(orders, revenue, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 8
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
