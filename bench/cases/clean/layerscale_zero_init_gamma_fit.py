# summary: a residual block scales its branch by a per-channel gamma created with initializer="zeros" (LayerScale / ReZero style); the branch's weights get exact zeros on the first step only, gamma's own gradient is not zero, it moves at once and fit changes every weight
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(17)
x = rng.normal(size=(64, 6)).astype("float32")
y = np.tanh(x @ rng.normal(size=(6, 6))).astype("float32")


class ScaledResidual(keras.layers.Layer):
    def build(self, input_shape):
        self.branch = keras.layers.Dense(input_shape[-1], activation="relu", name="ls_branch")
        self.gamma = self.add_weight(shape=(input_shape[-1],), initializer="zeros", name="gamma")

    def call(self, inputs):
        return inputs + self.gamma * self.branch(inputs)


model = keras.Sequential([keras.Input((6,)), ScaledResidual(name="ls_block"),
                          keras.layers.Dense(6, name="ls_out")], name="layerscale")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
