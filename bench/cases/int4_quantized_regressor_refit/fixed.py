# summary: the regressor is trained in float to the end and quantized to int4 only for deployment, after the last fit; the quantized model is only evaluated
import keras
import numpy as np

keras.utils.set_random_seed(2)

rng = np.random.default_rng(11105)
features = rng.uniform(size=(80, 8)).astype("float32")
prices = (features @ rng.uniform(size=(8, 1)) + 0.1).astype("float32")

model = keras.Sequential([keras.Input((8,)),
                          keras.layers.Dense(16, activation="relu", name="trunk"),
                          keras.layers.Dense(1, name="price")], name="price_model")
model.compile(optimizer="adam", loss="mse")
model.fit(features, prices, epochs=2, batch_size=16, verbose=0)
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")
model.fit(features, prices, epochs=2, batch_size=16, verbose=0)

model.quantize("int4")
print(model.evaluate(features, prices, verbose=0))
