# summary: the readout layers are a list attribute of the model itself, which Keras tracks, so fit trains them
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(12)


class Fingerprint(keras.Model):
    def __init__(self):
        super().__init__(name="fingerprint")
        self.embed = layers.Dense(8, activation="tanh", name="embed")
        self.readouts = [layers.Dense(1, name=f"readout_{i}") for i in range(2)]

    def call(self, x):
        h = self.embed(x)
        outs = [layer(h) for layer in self.readouts]
        return keras.ops.concatenate(outs, axis=-1)


rng = np.random.default_rng(12)
x = rng.normal(size=(48, 6)).astype("float32")
y = rng.normal(size=(48, 2)).astype("float32")
model = Fingerprint()
model.compile(optimizer="adam", loss="mse")
model(x[:1])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert len(model.trainable_weights) == 6
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights)), "all train"
