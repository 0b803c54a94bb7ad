# source: https://keras.io/examples/nlp/parameter_efficient_finetuning_of_gpt2_with_lora/
# summary: LoRA on a pretrained Dense: the original layer frozen (trainable=False), a rank-2 A (random) and B (zeros) added in a wrapper layer whose call adds x @ A @ B * alpha/r; compiled and fit, so A gets zeros on the first step only (B starts at 0)
import numpy as np
import keras
from keras import ops

keras.utils.set_random_seed(0)


class LoraDense(keras.layers.Layer):
    def __init__(self, original, rank=2, alpha=4.0, **kwargs):
        super().__init__(**kwargs)
        self.original = original
        self.original.trainable = False
        self.rank, self.scale = rank, alpha / rank

    def build(self, input_shape):
        units = self.original.units
        self.lora_a = self.add_weight(shape=(input_shape[-1], self.rank), name="lora_a",
                                      initializer=keras.initializers.HeUniform())
        self.lora_b = self.add_weight(shape=(self.rank, units), name="lora_b", initializer="zeros")

    def call(self, x):
        return self.original(x) + ops.matmul(ops.matmul(x, self.lora_a), self.lora_b) * self.scale


pretrained = keras.layers.Dense(8, name="query")
pretrained.build((None, 6))
inp = keras.Input((6,))
h = LoraDense(pretrained, name="lora_query")(inp)
out = keras.layers.Dense(1, name="head")(keras.layers.Activation("gelu")(h))
model = keras.Model(inp, out)
model.compile(keras.optimizers.Adam(1e-2), "mse")
rng = np.random.default_rng(14)
x, y = rng.normal(size=(32, 6)).astype("float32"), rng.normal(size=(32, 1)).astype("float32")
frozen = pretrained.kernel.numpy().copy()
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=2, batch_size=8, verbose=0)
assert np.allclose(frozen, pretrained.kernel.numpy())
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
