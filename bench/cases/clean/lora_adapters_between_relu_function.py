# source: https://docs.pytorch.org/torchtune/0.0/examples/lora_finetune.html
# summary: LoRA adapters on two frozen Dense layers with a ReLU between them, trained in a tf.function step; each adapter's B starts at zero (A random), so the A factors get exactly zero gradients on the first step only, and graph mode must not blame the live ReLU for it
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)


class LoraDense(keras.layers.Layer):
    def __init__(self, base, rank=2, alpha=4.0, **kwargs):
        super().__init__(**kwargs)
        self.base, self.rank, self.scale = base, rank, alpha / rank
        self.base.trainable = False

    def build(self, input_shape):
        self.down = self.add_weight(shape=(input_shape[-1], self.rank), initializer="he_uniform",
                                    name="down")
        self.up = self.add_weight(shape=(self.rank, self.base.units), initializer="zeros",
                                  name="up")

    def call(self, x):
        return self.base(x) + (x @ self.down @ self.up) * self.scale


first, second = keras.layers.Dense(16, name="first"), keras.layers.Dense(4, name="second")
pretrained = keras.Sequential([keras.Input((8,)), first, keras.layers.ReLU(), second])
pretrained(np.zeros((1, 8), "float32"))
model = keras.Sequential([keras.Input((8,)), LoraDense(first, name="adapt_first"),
                          keras.layers.ReLU(name="act"), LoraDense(second, name="adapt_second")],
                         name="tuned")
optimizer = keras.optimizers.Adam(1e-2)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x)
        loss = tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(y, logits,
                                                                          from_logits=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


rng = np.random.default_rng(1)
x = rng.normal(size=(32, 8)).astype("float32")
y = rng.integers(0, 4, 32)
frozen = [w.numpy().copy() for w in first.weights + second.weights]
start = [w.numpy().copy() for w in model.trainable_variables]
assert len(start) == 4
for _ in range(3):
    train_step(x, y)
assert all(not np.allclose(a, w.numpy()) for a, w in zip(start, model.trainable_variables))
assert all(np.array_equal(a, w.numpy()) for a, w in zip(frozen, first.weights + second.weights))
