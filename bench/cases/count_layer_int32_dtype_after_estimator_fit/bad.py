# source: https://github.com/keras-team/keras-core/pull/272
# cause: integer-dtype
# weights: basket/count_hidden/kernel, basket/count_hidden/bias, basket/count_estimate/kernel, basket/count_estimate/bias
# mode: fit
# summary: a Sequential model estimates an item count and passes it to a custom pricing layer the user made with dtype="int32" because it prices whole items; Keras casts every floating input of a layer to the layer's dtype before its call, so the estimate is truncated to int32 there and in fit the estimator gets no gradient while the pricing weight trains
# lint: no (the cast is Keras' own, in Layer.__call__; the source shows only a dtype argument)
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
                          UnitPrice(dtype="int32", name="unit_price")],  # expect: integer-dtype primary
                         name="basket")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.layers[0].weights]
model.fit(baskets, totals, epochs=2, batch_size=32, verbose=0)
print("estimator changed:",
      [bool(np.any(b != w.numpy())) for b, w in zip(before, model.layers[0].weights)])
