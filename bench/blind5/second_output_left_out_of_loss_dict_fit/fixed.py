# summary: both outputs have a loss, so the category head is trained as well and every weight changes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(35267)
x = rng.normal(size=(64, 6)).astype("float32")
price = (x[:, :1] * 2.0).astype("float32")
category = rng.integers(0, 3, size=(64,))

inputs = keras.Input((6,))
h = keras.layers.Dense(12, activation="relu", name="trunk")(inputs)
outputs = {"price": keras.layers.Dense(1, name="price")(h),
           "category": keras.layers.Dense(3, name="category")(h)}
model = keras.Model(inputs, outputs, name="listing")
model.compile(optimizer=keras.optimizers.Adam(1e-2),
              loss={"price": "mse",
                    "category": keras.losses.SparseCategoricalCrossentropy(from_logits=True)})
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, {"price": price, "category": category}, epochs=1, batch_size=16, verbose=0)
assert len(before) == 6
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
