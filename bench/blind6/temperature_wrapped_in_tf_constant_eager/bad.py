# source: https://github.com/tensorflow/tensorflow/issues/29942
# cause: not-connected
# weights: calibration_temperature
# mode: eager
# summary: a temperature-scaling step divides the classifier's logits by tf.constant(temperature) (the author wraps the learned tf.Variable "to be sure it is a tensor"); tf.constant copies the variable's current value into a new constant, so the tape records no read of the variable and its gradient is None while the classifier trains
# lint: yes
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
    scaled = classifier(x, training=True) / tf.constant(temperature)  # expect: not-connected primary
    loss = xent(y, scaled)
grads = tape.gradient(loss, params)
print({v.name: g is not None for v, g in zip(params, grads)})
