# summary: the head reads the whole concatenation (16 + 8 features), so the metadata branch reaches the loss and every weight changes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(16450)
text = rng.normal(size=(64, 10)).astype("float32")
meta = rng.normal(size=(64, 4)).astype("float32")
y = (text[:, :1] + meta[:, :1]).astype("float32")

text_in, meta_in = keras.Input((10,), name="text"), keras.Input((4,), name="meta")
t = keras.layers.Dense(16, activation="relu", name="text_branch")(text_in)
m = keras.layers.Dense(8, activation="relu", name="meta_branch")(meta_in)
joined = keras.layers.Concatenate(name="joined")([t, m])
out = keras.layers.Dense(1, name="price")(joined)
model = keras.Model([text_in, meta_in], out, name="listing")
model.compile(optimizer="adam", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit([text, meta], y, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)}
assert len(changed) == 6 and all(changed.values()), changed
