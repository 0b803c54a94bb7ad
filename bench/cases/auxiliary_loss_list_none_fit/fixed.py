# source: https://github.com/tensorflow/tensorflow/issues/34713
# summary: both outputs get a loss (mse and binary cross-entropy): every weight trains
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(22485)
x = rng.normal(size=(64, 7)).astype("float32")
main_y = (x[:, :2].sum(axis=1, keepdims=True)).astype("float32")
aux_y = (x[:, 2:4] > 0).astype("float32")

inputs = keras.Input((7,))
shared = keras.layers.Dense(10, activation="relu", name="shared")(inputs)
main = keras.layers.Dense(1, name="main_head")(shared)
aux = keras.layers.Dense(2, activation="sigmoid", name="aux_head")(shared)
model = keras.Model(inputs, [main, aux], name="two_heads")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=["mse", "binary_crossentropy"])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, [main_y, aux_y], epochs=1, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
