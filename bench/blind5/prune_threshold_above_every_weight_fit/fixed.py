# summary: the threshold is the layer's own pruning quantile (0.05 here, well inside its weight range), so most of the kernel is kept and every weight changes
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
        mask = keras.ops.cast(keras.ops.abs(self.kernel) > self.threshold, "float32")
        return keras.ops.matmul(inputs, self.kernel * mask) + self.bias


model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(32, activation="relu", name="pr_hidden"),
                          PrunedDense(32, threshold=0.05, activation=None, name="pr_masked"),
                          keras.layers.Dense(1, name="pr_out")], name="pruned_net")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
assert len(before) == 6
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
