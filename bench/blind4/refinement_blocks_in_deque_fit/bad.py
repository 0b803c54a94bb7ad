# source: https://coderoad.ru/58139679/%D0%98%D0%BC%D0%B5%D0%B5%D1%82-%D0%BB%D0%B8-%D1%81%D0%BF%D0%BE%D1%81%D0%BE%D0%B1-%D1%81%D0%BE%D0%B7%D0%B4%D0%B0%D0%BD%D0%B8%D1%8F-%D0%B8-%D1%85%D1%80%D0%B0%D0%BD%D0%B5%D0%BD%D0%B8%D1%8F-%D1%81%D0%BB%D0%BE%D0%B5%D0%B2-%D0%B2-%D0%BF%D0%BE%D0%B4%D0%BA%D0%BB%D0%B0%D1%81%D1%81%D0%BD%D0%BE%D0%B9-Keras-Model-%D0%BA%D0%B0%D0%BA%D0%BE%D0%B9-%D0%BB%D0%B8%D0%B1%D0%BE
# cause: sources-mismatch
# weights: refiner/refine_0/kernel, refiner/refine_0/bias, refiner/refine_1/kernel, refiner/refine_1/bias
# mode: fit
# summary: a subclassed Keras 3 model keeps its residual refinement blocks in a collections.deque (so the oldest block can be dropped later); Keras tracks layers held in attributes, lists, tuples and dicts but not in a deque, so the blocks' weights are in no trainable_weights and fit never changes them while the stem and head train
# lint: yes
import collections

import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(58139679)
x = rng.normal(size=(96, 6)).astype("float32")
y = np.tanh(x[:, :2].sum(axis=1, keepdims=True)).astype("float32")


class Refiner(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.stem = keras.layers.Dense(8, activation="relu", name="stem")
        self.blocks = collections.deque(  # expect: sources-mismatch primary
            keras.layers.Dense(8, activation="tanh", name=f"refine_{i}") for i in range(2))
        self.head = keras.layers.Dense(1, name="head")

    def call(self, inputs):
        h = self.stem(inputs)
        for block in self.blocks:
            h = h + block(h)
        return self.head(h)


model = Refiner(name="refiner")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
model(x[:2])
blocks = [w for block in model.blocks for w in block.weights]
before = [w.numpy().copy() for w in blocks]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
print("tracked:", [w.path for w in model.trainable_weights])
print("blocks changed:", [bool(np.any(b != w.numpy())) for b, w in zip(before, blocks)])
