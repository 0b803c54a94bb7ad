# summary: the layer makes its scale and offset with add_weight, so Keras tracks and trains them
import numpy as np
import keras

keras.utils.set_random_seed(0)


class Affine(keras.layers.Layer):
    def __init__(self, width, **kwargs):
        super().__init__(**kwargs)
        self.gain = self.add_weight(shape=(width,), initializer="ones", name="gain")
        self.shift = self.add_weight(shape=(width,), initializer="zeros", name="shift")

    def call(self, inputs):
        return inputs * self.gain + self.shift


rng = np.random.default_rng(16797)
x = rng.normal(size=(32, 5)).astype("float32")
y = (2.0 * x[:, :1] + 0.5).astype("float32")
affine = Affine(5, name="affine")
model = keras.Sequential([keras.Input((5,)), affine, keras.layers.Dense(1, name="head")])
model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
