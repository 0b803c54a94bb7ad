# source: https://github.com/kornia/kornia/issues/271
# cause: non-differentiable-op|integer-dtype
# rule: -
# weights: enhancer/enhance_conv/kernel, enhancer/enhance_conv/bias, enhancer/enhance_out/kernel, enhancer/enhance_out/bias
# mode: fit
# summary: a low-light enhancer ends in keras.layers.Equalization so that its output has the contrast of the targets; histogram equalization maps each pixel through a lookup table indexed by its integer bin, so the output carries exactly zero gradient back to the convolutions and fit never changes a weight
# lint: no (Equalization is a valid preprocessing layer; placing it on the trained output is the bug)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(271)
dark = (0.3 * rng.uniform(size=(16, 8, 8, 3))).astype("float32")
bright = np.clip(dark * 3.0, 0.0, 1.0).astype("float32")

class Enhancer(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.conv = keras.layers.Conv2D(8, 3, padding="same", activation="relu", name="enhance_conv")
        self.out = keras.layers.Conv2D(3, 3, padding="same", activation="sigmoid", name="enhance_out")
        self.equalize = keras.layers.Equalization(value_range=(0, 1), name="enhance_equalize")  # accept: non-differentiable-op|integer-dtype

    def call(self, inputs):
        return self.equalize(self.out(self.conv(inputs)))  # expect: non-differentiable-op|integer-dtype primary


model = Enhancer(name="enhancer")
model(dark[:1])
model.compile(optimizer="adam", loss="mse")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(dark, bright, epochs=2, batch_size=8, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights})
