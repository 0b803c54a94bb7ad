# summary: a Sequential with no Input layer built with model.build((None, 6)), its trainable_weights read once before the loop and reused as the sources of an eager custom loop
# source: https://keras.io/guides/sequential_model/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(53)
rng = np.random.default_rng(53)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
model = keras.Sequential([layers.Dense(8, activation="relu", name="h"), layers.Dense(1, name="out")])
model.build((None, 6))
params = model.trainable_weights
opt = keras.optimizers.Adam(1e-3)
for i in range(0, 32, 16):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x[i:i + 16]) - y[i:i + 16]))
    grads = tape.gradient(loss, params)
    opt.apply_gradients(zip(grads, params))
assert len(params) == 4
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
