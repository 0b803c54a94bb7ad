# source: https://github.com/jakeret/tf_unet/issues/59
# cause: sources-mismatch
# weights: resumed/rs_hidden/kernel, resumed/rs_hidden/bias, resumed/rs_out/kernel, resumed/rs_out/bias
# mode: eager
# summary: a resume-training script keeps params = model.trainable_variables from before it saved and reloaded the model with keras.models.load_model; the loop runs the reloaded model but differentiates with respect to the old model's variables, so every gradient is None and apply_gradients raises "No gradients provided for any variable"
# lint: no (which object the list came from is only known at run time)
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
params = model.trainable_variables
path = os.path.join(tempfile.mkdtemp(), "ckpt.keras")
model.save(path)
model = keras.models.load_model(path)
optimizer = keras.optimizers.Adam(1e-2)

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
grads = tape.gradient(loss, params)  # expect: sources-mismatch primary
print("grads are None:", [g is None for g in grads])
optimizer.apply_gradients(zip(grads, params))
