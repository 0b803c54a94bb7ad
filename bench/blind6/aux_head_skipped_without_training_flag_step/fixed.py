# summary: the step calls model(x, training=True), so the auxiliary head is computed and its loss term trains it along with the trunk and the main head
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(27275)
x = rng.normal(size=(48, 6)).astype("float32")
y = rng.integers(0, 3, size=48)


class DeepSupervised(keras.Model):
    def __init__(self):
        super().__init__(name="deep_supervised")
        self.trunk = keras.layers.Dense(16, activation="relu", name="trunk")
        self.main_head = keras.layers.Dense(3, name="main_head")
        self.aux_head = keras.layers.Dense(3, name="aux_head")

    def call(self, inputs, training=None):
        h = self.trunk(inputs)
        logits = self.main_head(h)
        if training:
            return logits, self.aux_head(h)
        return logits, tf.zeros_like(logits)


model = DeepSupervised()
model(x[:1], training=True)
xent = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        logits, aux_logits = model(features, training=True)
        loss = xent(labels, logits) + 0.4 * xent(labels, aux_logits)
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, y)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
