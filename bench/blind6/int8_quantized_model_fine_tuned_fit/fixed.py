# summary: the model is fine-tuned on the new site's data first and quantised to int8 only afterwards, so fit trains every kernel and bias
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

model.compile(optimizer=keras.optimizers.Adam(1e-3), loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x_site, y_site, epochs=1, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)}
assert len(changed) == 4 and all(changed.values()), changed
model.quantize("int8")
