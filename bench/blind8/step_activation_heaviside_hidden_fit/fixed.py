# summary: the hidden activation is a steep sigmoid (a smooth step), which has a derivative, so both layers change under fit
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(61484)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x[:, :1] * x[:, 1:2] > 0).astype("float32")

model = keras.Sequential([keras.Input((4,)),
                          keras.layers.Dense(8, name="step_hidden"),
                          keras.layers.Lambda(lambda z: keras.ops.sigmoid(4.0 * z), name="step"),
                          keras.layers.Dense(1, activation="sigmoid", name="step_out")], name="perceptron")
model.compile(optimizer="adam", loss="binary_crossentropy")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights}
assert len(changed) == 4 and all(changed.values()), changed
