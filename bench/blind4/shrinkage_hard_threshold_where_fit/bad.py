# source: https://github.com/zhao62/Deep-Residual-Shrinkage-Networks/issues/5
# cause: non-differentiable-op
# weights: denoiser/shrink/tau
# mode: fit
# summary: a signal denoiser learns its shrinkage threshold tau and applies it the way a thresholded ReLU does, keras.ops.where(x > tau, x, 0), expecting it to act as soft thresholding; the output is x itself wherever it survives and the threshold only enters the comparison, so in fit tau gets no gradient ("Gradients do not exist") and never changes while the convolutions train
# lint: yes
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
        return ops.where(x > self.tau, x, 0.0)  # expect: non-differentiable-op primary


model = keras.Sequential([
    keras.Input((32, 1)),
    keras.layers.Conv1D(8, 5, padding="same", name="analysis"),
    Shrink(name="shrink"),
    keras.layers.Conv1D(1, 5, padding="same", name="synthesis"),
], name="denoiser")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
model.fit(noisy, clean, epochs=2, batch_size=32, verbose=0)
print("tau after fit:", float(model.get_layer("shrink").tau.numpy()))
