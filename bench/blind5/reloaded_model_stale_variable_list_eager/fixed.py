# summary: the variable list is read from the reloaded model, so the gradients are taken for the weights the loss actually reads and every weight gets a gradient
import os
import tempfile

import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(59)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")

model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="relu", name="rs_hidden"),
                          keras.layers.Dense(1, name="rs_out")], name="resumed")
path = os.path.join(tempfile.mkdtemp(), "ckpt.keras")
model.save(path)
model = keras.models.load_model(path)
params = model.trainable_variables
optimizer = keras.optimizers.Adam(1e-2)

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
grads = tape.gradient(loss, params)
optimizer.apply_gradients(zip(grads, params))
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
