# source: https://github.com/tensorflow/tensorflow/issues/27275
# cause: python-control-flow|not-connected
# weights: deep_supervised/aux_head/kernel, deep_supervised/aux_head/bias
# mode: function
# summary: a deeply supervised classifier computes its auxiliary head only `if training:` and returns zeros otherwise (to save work at inference); the custom step calls model(x) without training=True, so training is None, the zeros are returned, and the auxiliary loss term never reaches the auxiliary head
# lint: no (the branch depends on an argument's value at the call site)
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
        if training:  # accept: python-control-flow|not-connected
            return logits, self.aux_head(h)
        return logits, tf.zeros_like(logits)


model = DeepSupervised()
model(x[:1], training=True)
xent = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        logits, aux_logits = model(features)  # expect: python-control-flow|not-connected primary
        loss = xent(labels, logits) + 0.4 * xent(labels, aux_logits)
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, y)
print({v.path: g is not None for v, g in zip(model.trainable_variables, grads)})
