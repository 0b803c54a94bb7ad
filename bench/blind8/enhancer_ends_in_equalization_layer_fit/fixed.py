# summary: the enhancer ends at its sigmoid convolution; equalization is left to post-processing, so the loss reaches every weight and fit changes them all
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

    def call(self, inputs):
        return self.out(self.conv(inputs))


model = Enhancer(name="enhancer")
model(dark[:1])
model.compile(optimizer="adam", loss="mse")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(dark, bright, epochs=2, batch_size=8, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights}
assert len(changed) == 4 and all(changed.values()), changed
