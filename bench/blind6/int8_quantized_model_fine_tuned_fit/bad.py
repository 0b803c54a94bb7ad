# source: https://github.com/keras-team/keras-io/pull/2195
# cause: sources-mismatch
# weights: sensor_net/sensor_hidden/kernel, sensor_net/sensor_out/kernel
# mode: fit
# summary: a trained model is shrunk with model.quantize("int8") and then fine-tuned on a new site's data with compile and fit; quantisation replaces each Dense kernel by a non-trainable int8 variable, so only the biases move and the kernels never change
# lint: yes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2195)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 3, size=64)
x_site = rng.normal(loc=0.5, size=(64, 6)).astype("float32")
y_site = rng.integers(0, 3, size=64)

model = keras.Sequential([keras.Input((6,)),
                          keras.layers.Dense(12, activation="relu", name="sensor_hidden"),
                          keras.layers.Dense(3, name="sensor_out")], name="sensor_net")
model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(x, y, epochs=1, batch_size=16, verbose=0)

model.quantize("int8")  # expect: sources-mismatch primary
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = {w.path: w.numpy().copy() for w in model.weights}
model.fit(x_site, y_site, epochs=1, batch_size=16, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.weights})
