# source: https://keras.io/api/ops/core/#stopgradient-function
# summary: a Keras 3 backend-agnostic quantized activation layer: keras.ops.round in the forward pass with keras.ops.stop_gradient straight-through (x + stop_gradient(round(x) - x)), clipping with keras.ops.clip, trained by fit
import numpy as np
import keras
from keras import ops

keras.utils.set_random_seed(0)


class QuantAct(keras.layers.Layer):
    def __init__(self, levels=7, **kwargs):
        super().__init__(**kwargs)
        self.levels = levels

    def call(self, x):
        x = ops.clip(x, -1.0, 1.0) * self.levels
        return (x + ops.stop_gradient(ops.round(x) - x)) / self.levels


model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, name="d1"), QuantAct(name="q"),
                          keras.layers.Dense(1, name="d2")])
model.compile("adam", "mse")
rng = np.random.default_rng(50)
x, y = (rng.normal(size=(32, 6)) * 0.3).astype("float32"), rng.normal(size=(32, 1)).astype("float32")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=1, batch_size=8, verbose=0)
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
