# source: https://github.com/keras-team/keras/issues/20058
# cause: integer-dtype
# weights: estimator/est_hidden/kernel, estimator/est_hidden/bias, estimator/est_units/kernel, estimator/est_units/bias
# mode: fit
# summary: a two-stage model chains a unit-count estimator into a pricing model that was built for integer counts with keras.Input(dtype="int32"); calling the pricing model casts the estimator's float output to int32, so in fit the pricing layers train while the estimator gets no gradient and never changes
# lint: yes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(20058)
orders = rng.normal(size=(128, 6)).astype("float32")
revenue = (orders[:, :2].sum(axis=1, keepdims=True) * 3.0).astype("float32")

estimator = keras.Sequential([keras.Input((6,)),
                              keras.layers.Dense(8, activation="relu", name="est_hidden"),
                              keras.layers.Dense(1, name="est_units")], name="estimator")
units = keras.Input((1,), dtype="int32", name="units")  # expect: integer-dtype primary
price_hidden = keras.layers.Dense(4, activation="relu", name="price_hidden")(
    keras.ops.cast(units, "float32"))
pricing = keras.Model(units, keras.layers.Dense(1, name="price_out")(price_hidden), name="pricing")

order_in = keras.Input((6,))
model = keras.Model(order_in, pricing(estimator(order_in)), name="two_stage")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in estimator.trainable_weights]
model.fit(orders, revenue, epochs=2, batch_size=32, verbose=0)
print("estimator changed:",
      [bool(np.any(b != w.numpy())) for b, w in zip(before, estimator.trainable_weights)])
