# summary: the logits are divided by the variable itself, so the tape records its read and the temperature gets a gradient with the classifier
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(56968)
x = rng.normal(size=(64, 5)).astype("float32")
y = rng.integers(0, 3, size=64)

classifier = keras.Sequential([keras.Input((5,)), keras.layers.Dense(3, name="calib_logits")], name="calib_net")
temperature = tf.Variable(1.5, name="calibration_temperature")
xent = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
params = classifier.trainable_variables + [temperature]

with tf.GradientTape() as tape:
    scaled = classifier(x, training=True) / temperature
    loss = xent(y, scaled)
grads = tape.gradient(loss, params)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
