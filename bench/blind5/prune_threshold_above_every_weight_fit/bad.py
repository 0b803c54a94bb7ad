# source: https://github.com/Eric-mingjie/rethinking-network-pruning/issues/18
# cause: zero-at-runtime
# weights: pruned_net/pr_hidden/kernel, pruned_net/pr_hidden/bias, pruned_net/pr_masked/kernel
# mode: fit
# summary: a magnitude-pruning layer masks its kernel with abs(kernel) > threshold, the threshold taken from a global pruning ratio computed on a larger layer (0.5); every weight of this layer is below it, the whole kernel is masked, the layer outputs only its bias and the masked kernel and every layer before it get exactly zero gradients: fit never changes them
# lint: no (the threshold is a value)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(18)
x = rng.normal(size=(64, 6)).astype("float32")
y = np.sin(x[:, :1]).astype("float32")


class PrunedDense(keras.layers.Dense):
    def __init__(self, units, threshold, **kwargs):
        super().__init__(units, **kwargs)
        self.threshold = threshold

    def call(self, inputs):
        mask = keras.ops.cast(keras.ops.abs(self.kernel) > self.threshold, "float32")  # expect: zero-at-runtime primary
        return keras.ops.matmul(inputs, self.kernel * mask) + self.bias


model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(32, activation="relu", name="pr_hidden"),
                          PrunedDense(32, threshold=0.5, activation=None, name="pr_masked"),
                          keras.layers.Dense(1, name="pr_out")], name="pruned_net")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
