# source: https://github.com/tensorflow/tensorflow/issues/29073
# summary: the decoder stages are held in a list, which Keras tracks, and the call walks a collections.deque made over the same layers; every weight is a source and trains
import collections

import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(29073)
x = rng.normal(size=(16, 6)).astype("float32")


class UNet(keras.Model):
    def __init__(self, widths, **kwargs):
        super().__init__(**kwargs)
        self.down = [keras.layers.Dense(w, activation="relu", name=f"down_{i}")
                     for i, w in enumerate(widths)]
        self.up = []
        for i, w in enumerate(widths):
            self.up.insert(0, keras.layers.Dense(w, activation="relu", name=f"up_{i}"))
        self.out = keras.layers.Dense(6, name="recon")
        self.order = collections.deque(self.up)  # a view for scheduling; the list tracks them

    def call(self, inputs):
        h = inputs
        for layer in self.down:
            h = layer(h)
        for layer in self.order:
            h = layer(h)
        return self.out(h)


model = UNet([8, 4], name="unet")
model(x[:2])
optimizer = keras.optimizers.SGD(0.05)
for step in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=True) - x))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads), grads
assert len(model.trainable_variables) == 10, [v.path for v in model.trainable_variables]
print("ok", float(loss))
