# summary: the threshold is applied as soft shrinkage, sign(x) * relu(|x| - tau), which is differentiable in tau wherever |x| > tau, so fit changes tau together with the convolutions
import keras
import numpy as np
from keras import ops

keras.utils.set_random_seed(0)

rng = np.random.default_rng(62)
clean = np.sin(np.linspace(0, 6, 32))[None, :, None] * rng.uniform(0.5, 1.5, size=(96, 1, 1))
noisy = (clean + 0.3 * rng.normal(size=clean.shape)).astype("float32")
clean = clean.astype("float32")


class Shrink(keras.layers.Layer):
    def build(self, input_shape):
        self.tau = self.add_weight(shape=(), initializer=keras.initializers.Constant(0.1),
                                   name="tau")

    def call(self, x):
        return ops.sign(x) * ops.relu(ops.abs(x) - self.tau)


model = keras.Sequential([
    keras.Input((32, 1)),
    keras.layers.Conv1D(8, 5, padding="same", name="analysis"),
    Shrink(name="shrink"),
    keras.layers.Conv1D(1, 5, padding="same", name="synthesis"),
], name="denoiser")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(noisy, clean, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 5
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
