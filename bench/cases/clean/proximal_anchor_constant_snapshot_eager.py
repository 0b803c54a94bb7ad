# summary: a proximal (FedProx-style) fine-tuning step: before the tape the learned temperature is snapshot with tf.constant(temperature) as the anchor, and the loss reads the variable itself plus mu * (temperature - anchor)^2; the copy is a constant on purpose and the variable still gets its gradient; eager
# source: https://www.tensorflow.org/api_docs/python/tf/constant
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(19)
rng = np.random.default_rng(19)
x = rng.normal(size=(64, 5)).astype("float32")
y = rng.integers(0, 3, size=64)

classifier = keras.Sequential([keras.Input((5,)), keras.layers.Dense(3, name="prox_logits")], name="prox_net")
temperature = tf.Variable(1.5, name="prox_temperature")
xent = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
params = classifier.trainable_variables + [temperature]

anchor = tf.constant(temperature)
with tf.GradientTape() as tape:
    loss = xent(y, classifier(x, training=True) / temperature) + 0.1 * tf.square(temperature - anchor)
grads = tape.gradient(loss, params)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
