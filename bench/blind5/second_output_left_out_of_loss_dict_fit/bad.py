# source: https://github.com/tensorflow/tensorflow/issues/35267
# cause: not-connected
# weights: category/kernel, category/bias
# mode: fit
# summary: a two-headed listing model (price regression and category classification) is compiled with loss={"price": "mse"} only, the category loss forgotten while its labels are still passed to fit; the category head reaches no loss, Keras warns that gradients do not exist for it, and its weights never change
# lint: yes
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
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss={"price": "mse"})  # expect: not-connected primary
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, {"price": price, "category": category}, epochs=1, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
