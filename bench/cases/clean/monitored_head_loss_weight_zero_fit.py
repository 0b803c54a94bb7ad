# summary: a second output is compiled with a loss and a loss_weights entry of 0.0 so that its loss is reported while training but not minimised (a monitored probe head): its weights get exact zero gradients on purpose
# source: https://keras.io/api/models/model_training_apis/
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(5)
x = rng.normal(size=(64, 6)).astype("float32")
target = x[:, :1] * 1.5
probe_y = rng.integers(0, 2, size=(64,))

inputs = keras.Input((6,))
h = keras.layers.Dense(8, activation="tanh", name="body")(inputs)
outputs = {"value": keras.layers.Dense(1, name="value")(h),
           "probe": keras.layers.Dense(2, name="probe")(h)}
model = keras.Model(inputs, outputs, name="probed")
model.compile(optimizer="adam",
              loss={"value": "mse", "probe": "sparse_categorical_crossentropy"},
              loss_weights={"value": 1.0, "probe": 0.0})
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, {"value": target, "probe": probe_y}, epochs=1, batch_size=16, verbose=0)
assert all(np.any(before[w.path] != w.numpy()) for w in model.trainable_weights
           if not w.path.startswith("probe/"))
