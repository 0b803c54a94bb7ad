# summary: a classifier exposes both its logits and their softmax as named outputs and is compiled with a loss on the logits only; the probabilities output has no weights of its own, so every weight still trains
import keras
import numpy as np

keras.utils.set_random_seed(7)

rng = np.random.default_rng(7)
x = rng.normal(size=(64, 5)).astype("float32")
labels = (x[:, 0] > 0).astype("int32")

inputs = keras.Input((5,))
h = keras.layers.Dense(8, activation="relu", name="lp_hidden")(inputs)
logits = keras.layers.Dense(2, name="lp_logits")(h)
model = keras.Model(inputs, {"logits": logits, "probs": keras.layers.Softmax(name="lp_probs")(logits)})
model.compile(optimizer=keras.optimizers.Adam(1e-2),
              loss={"logits": keras.losses.SparseCategoricalCrossentropy(from_logits=True)})
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, {"logits": labels, "probs": labels}, epochs=1, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)}
print(changed)
assert all(changed.values())
