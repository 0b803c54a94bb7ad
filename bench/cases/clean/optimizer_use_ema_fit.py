# summary: Keras 3's optimizer option use_ema=True (an exponential moving average of the weights kept by the optimizer, swapped in by a callback at the end), fit
# source: https://keras.io/api/optimizers/
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(22)
rng = np.random.default_rng(22)
x = rng.normal(size=(48, 5)).astype("float32")
y = rng.normal(size=(48, 1)).astype("float32")
model = keras.Sequential([keras.Input((5,)), layers.Dense(8, activation="relu", name="h"),
                          layers.Dense(1, name="out")])
model.compile(keras.optimizers.Adam(1e-2, use_ema=True, ema_momentum=0.9,
                                    ema_overwrite_frequency=None), "mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=8, epochs=1, verbose=0,
          callbacks=[keras.callbacks.SwapEMAWeights(swap_on_epoch=True)])
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
