# source: https://github.com/DigitalSlideArchive/HistomicsStream/pull/40
# cause: zero-at-runtime
# weights: demand_model/demand_hidden/kernel, demand_model/demand_hidden/bias, demand_model/demand_out/kernel, demand_model/demand_out/bias
# mode: fit
# summary: a tf.data pipeline yields (features, target, is_synthetic) so the flag travels with each row for later filtering; fit reads a 3-tuple as (x, y, sample_weight), every row of the training set is real (flag 0), so every sample weight is 0, the loss is exactly 0 and no weight changes
# lint: no (a 3-tuple is a valid (x, y, sample_weight); only the flag's values make every weight 0)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(40)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")
is_synthetic = np.zeros((64,), dtype="float32")

data = tf.data.Dataset.from_tensor_slices((x, y, is_synthetic)).batch(16)  # expect: zero-at-runtime primary

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(10, activation="relu", name="demand_hidden"),
                          keras.layers.Dense(1, name="demand_out")], name="demand_model")
model.compile(optimizer="adam", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(data, epochs=2, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
