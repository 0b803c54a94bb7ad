# summary: the loss dict names both outputs (the genre head gets a sparse categorical cross-entropy on its logits), so every layer trains
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(22485)
x = rng.normal(size=(64, 7)).astype("float32")
score = (x[:, :1] * 0.5 + x[:, 1:2]).astype("float32")
genre = rng.integers(0, 4, size=(64,))

inputs = keras.Input((7,))
h = keras.layers.Dense(10, activation="relu", name="shared")(inputs)
outputs = {"score": keras.layers.Dense(1, name="score_head")(h),
           "genre": keras.layers.Dense(4, name="aux_head")(h)}
model = keras.Model(inputs, outputs, name="ratings")
model.compile(optimizer=keras.optimizers.Adam(1e-2),
              loss={"score": "mse",
                    "genre": keras.losses.SparseCategoricalCrossentropy(from_logits=True)})
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, {"score": score, "genre": genre}, epochs=1, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)}
print(changed)
assert all(changed.values())
