# summary: histogram equalization (keras.layers.Equalization) is applied to the low-light inputs inside a tf.data map, before the model; the model itself is plain convolutions and every weight changes under fit
# source: https://keras.io/api/layers/preprocessing_layers/image_augmentation/equalization/
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(23)
dark = (0.3 * rng.uniform(size=(16, 8, 8, 3))).astype("float32")
bright = np.clip(dark * 3.0, 0.0, 1.0).astype("float32")
equalize = keras.layers.Equalization(value_range=(0, 1))
dataset = tf.data.Dataset.from_tensor_slices((dark, bright)).batch(8).map(lambda a, b: (equalize(a), b))

model = keras.Sequential([keras.Input((8, 8, 3)),
                          keras.layers.Conv2D(8, 3, padding="same", activation="relu", name="eq_conv"),
                          keras.layers.Conv2D(3, 3, padding="same", activation="sigmoid", name="eq_out")], name="eq_model")
model.compile(optimizer="adam", loss="mse")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(dataset, epochs=2, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights}
assert len(changed) == 4 and all(changed.values()), changed
