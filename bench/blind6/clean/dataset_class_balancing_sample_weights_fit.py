# source: https://www.tensorflow.org/tutorials/structured_data/imbalanced_data
# summary: a tf.data pipeline yields (features, label, weight) with per-class balancing weights (0.5 for the common class, 2.0 for the rare one); fit reads the third element as sample_weight as intended, no weight is 0, and every weight changes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(18)
x = rng.normal(size=(64, 5)).astype("float32")
y = (rng.random(64) < 0.2).astype("float32")[:, None]
weights = np.where(y[:, 0] > 0, 2.0, 0.5).astype("float32")

data = tf.data.Dataset.from_tensor_slices((x, y, weights)).batch(16)
model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="relu", name="balanced_hidden"),
                          keras.layers.Dense(1, activation="sigmoid", name="balanced_out")], name="balanced_model")
model.compile(optimizer="adam", loss="binary_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(data, epochs=2, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)}
assert len(changed) == 4 and all(changed.values()), changed
