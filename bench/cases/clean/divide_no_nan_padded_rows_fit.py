# summary: a masked mean pooling divides the masked sum by the number of real steps with divide_no_nan; only the all-padding rows divide by zero (their output and gradient are zero), every other row trains and fit changes every weight
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(13)
x = rng.normal(size=(48, 6, 3)).astype("float32")
mask = (rng.random(size=(48, 6)) > 0.3).astype("float32")
mask[::8] = 0.0  # some rows are padding only
y = rng.normal(size=(48, 1)).astype("float32")


class MeanOverValid(keras.layers.Layer):
    def call(self, values, mask):
        total = tf.reduce_sum(values * mask[..., None], axis=1)
        count = tf.reduce_sum(mask, axis=1, keepdims=True)
        return tf.math.divide_no_nan(total, count)


values = keras.Input((6, 3))
steps = keras.Input((6,))
projected = keras.layers.Dense(4, activation="tanh", name="dn_proj")(values)
pooled = MeanOverValid(name="dn_pool")(projected, steps)
outputs = keras.layers.Dense(1, name="dn_head")(pooled)
model = keras.Model([values, steps], outputs, name="masked_mean")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit([x, mask], y, epochs=1, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
