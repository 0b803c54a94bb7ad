# source: https://github.com/tensorflow/tensorflow/issues/29073
# cause: sources-mismatch
# weights: unet/up_0/kernel, unet/up_0/bias, unet/up_1/kernel, unet/up_1/bias
# mode: eager
# summary: a subclassed Keras 3 encoder-decoder builds its decoder stages with appendleft into a collections.deque so they mirror the encoder; Keras tracks layers held in attributes, lists, tuples, dicts and sets, not in a deque, so the decoder's weights are missing from trainable_variables, the gradient call never asks for them and they never train
# lint: no (whether Keras tracks the container is Keras' own fact at run time)
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
        self.up = collections.deque()  # expect: sources-mismatch primary
        for i, w in enumerate(widths):
            self.up.appendleft(keras.layers.Dense(w, activation="relu", name=f"up_{i}"))
        self.out = keras.layers.Dense(6, name="recon")

    def call(self, inputs):
        h = inputs
        for layer in self.down:
            h = layer(h)
        for layer in self.up:
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
print("trained:", [v.path for v in model.trainable_variables])
