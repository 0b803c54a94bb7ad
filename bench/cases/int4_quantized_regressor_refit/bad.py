# source: https://github.com/keras-team/keras/issues/11105
# cause: sources-mismatch
# weights: price_model/trunk/kernel, price_model/price/kernel
# mode: fit
# summary: to train "with quantization" the script shrinks a fitted regressor with model.quantize("int4") and keeps calling fit on new data, expecting quantization-aware training; int4 quantization stores each Dense kernel as a packed non-trainable integer variable, so only the biases move
# lint: yes
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

model.quantize("int4")  # expect: sources-mismatch primary
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")
history = model.fit(features, prices, epochs=2, batch_size=16, verbose=0)
print(history.history["loss"])
