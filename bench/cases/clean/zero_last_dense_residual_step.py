# source: https://github.com/smallflyingpig/universal_adversarial_perturbation_generative_network_for_speaker_recognition/issues/4
# summary: each residual branch ends in a Dense initialised to zero (Fixup/SkipInit style); the branch's inner weights get exactly zero gradients on the first step only, the zero Dense moves at once and from the second step everything trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(4)

rng = np.random.default_rng(44)
x = rng.normal(size=(64, 6)).astype("float32")
y = np.tanh(x @ rng.normal(size=(6, 1))).astype("float32")


class ResidualBlock(tf.keras.layers.Layer):
    def __init__(self, width, **kwargs):
        super().__init__(**kwargs)
        self.inner = tf.keras.layers.Dense(width, activation="tanh", name="inner")
        self.last = tf.keras.layers.Dense(width, kernel_initializer="zeros", name="last")

    def call(self, inputs):
        return inputs + self.last(self.inner(inputs))


model = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(8, name="stem"),
                             ResidualBlock(8, name="block"), tf.keras.layers.Dense(1, name="head")],
                            name="fixup_mlp")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(features) - targets) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


before = [v.numpy().copy() for v in model.trainable_variables]
for _ in range(5):
    train_step(x, y)
assert all(np.any(b != v.numpy()) for b, v in zip(before, model.trainable_variables, strict=True))
