# summary: the pipeline yields (features, target) only and keeps the synthetic flag out of fit's tuple, so every row weighs 1 and every weight changes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(40)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")
is_synthetic = np.zeros((64,), dtype="float32")

data = tf.data.Dataset.from_tensor_slices((x, y, is_synthetic)).map(lambda f, t, flag: (f, t)).batch(16)

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(10, activation="relu", name="demand_hidden"),
                          keras.layers.Dense(1, name="demand_out")], name="demand_model")
model.compile(optimizer="adam", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(data, epochs=2, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)}
assert len(changed) == 4 and all(changed.values()), changed
