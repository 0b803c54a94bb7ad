# source: https://github.com/keiserlab/keras-neural-graph-fingerprint/issues/2
# cause: sources-mismatch
# rule: TM115
# weights: fingerprint/readout_0/kernel, fingerprint/readout_0/bias, fingerprint/readout_1/kernel, fingerprint/readout_1/bias
# mode: fit
# summary: the readout Dense layers of a subclassed model live in a plain Python helper object, so Keras never tracks them and fit never trains them
# lint: no (whether Keras tracks an attribute depends on the object's class at run time)
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(12)


class Readouts:
    def __init__(self, count):
        self.layers = [layers.Dense(1, name=f"readout_{i}") for i in range(count)]


class Fingerprint(keras.Model):
    def __init__(self):
        super().__init__(name="fingerprint")
        self.embed = layers.Dense(8, activation="tanh", name="embed")
        self.readouts = Readouts(2)  # expect: sources-mismatch primary

    def call(self, x):
        h = self.embed(x)
        outs = [layer(h) for layer in self.readouts.layers]  # accept: sources-mismatch
        return keras.ops.concatenate(outs, axis=-1)


rng = np.random.default_rng(12)
x = rng.normal(size=(48, 6)).astype("float32")
y = rng.normal(size=(48, 2)).astype("float32")
model = Fingerprint()
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print("trainable", len(model.trainable_weights))
