# source: https://github.com/keras-team/keras/pull/20494
# summary: a denoiser's shrinkage layer applies its learned threshold with keras.ops.where(|x| > tau, x - sign(x) * tau, 0); the comparison only selects, the kept branch subtracts tau, so the threshold trains in fit with the convolutions
import keras
import numpy as np
from keras import ops

keras.utils.set_random_seed(0)

rng = np.random.default_rng(20494)
clean = np.cos(np.linspace(0, 5, 32))[None, :, None] * rng.uniform(0.5, 1.5, size=(96, 1, 1))
noisy = (clean + 0.3 * rng.normal(size=clean.shape)).astype("float32")
clean = clean.astype("float32")


class SoftShrink(keras.layers.Layer):
    def build(self, input_shape):
        self.tau = self.add_weight(shape=(input_shape[-1],),
                                   initializer=keras.initializers.Constant(0.1), name="tau")

    def call(self, x):
        return ops.where(ops.abs(x) > self.tau, x - ops.sign(x) * self.tau, 0.0)


model = keras.Sequential([
    keras.Input((32, 1)),
    keras.layers.Conv1D(8, 5, padding="same", name="enc_conv"),
    SoftShrink(name="soft_shrink"),
    keras.layers.Conv1D(1, 5, padding="same", name="dec_conv"),
], name="shrink_denoiser")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(noisy, clean, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 5
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
