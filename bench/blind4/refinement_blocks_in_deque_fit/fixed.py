# summary: the refinement blocks are kept in a plain list (Keras tracks lists of layers), so their weights are among the model's trainable weights and fit changes every weight
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
        self.blocks = [keras.layers.Dense(8, activation="tanh", name=f"refine_{i}")
                       for i in range(2)]
        self.head = keras.layers.Dense(1, name="head")

    def call(self, inputs):
        h = self.stem(inputs)
        for block in self.blocks:
            h = h + block(h)
        return self.head(h)


model = Refiner(name="refiner")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
model(x[:2])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 8
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
