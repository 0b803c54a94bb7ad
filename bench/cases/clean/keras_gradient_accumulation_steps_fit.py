# summary: Keras 3's optimizer option gradient_accumulation_steps=4 with fit: three of every four steps apply nothing, the accumulated gradients are applied on the fourth
# source: https://keras.io/api/optimizers/
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(11)
rng = np.random.default_rng(11)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.normal(size=(64, 1)).astype("float32")
model = keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="tanh", name="h"),
                          layers.Dense(1, name="out")])
model.compile(optimizer=keras.optimizers.SGD(0.05, gradient_accumulation_steps=4), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=8, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
