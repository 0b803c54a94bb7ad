# summary: the loss is the squared modulus of the complex error (tf.abs), which depends on both parts, so every head trains
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(17110)
x = rng.normal(size=(32, 5)).astype("float32")
target = (rng.normal(size=(32, 6)) + 1j * rng.normal(size=(32, 6))).astype("complex64")

inputs = keras.Input((5,))
trunk = keras.layers.Dense(16, activation="tanh", name="spectrum_trunk")(inputs)
real_part = keras.layers.Dense(6, name="spectrum_real")(trunk)
imag_part = keras.layers.Dense(6, name="spectrum_imag")(trunk)
model = keras.Model(inputs, [real_part, imag_part], name="spectrum_net")


@tf.function
def train_step(features, spectrum):
    with tf.GradientTape() as tape:
        re, im = model(features, training=True)
        predicted = tf.complex(re, im)
        loss = tf.reduce_mean(tf.square(tf.abs(predicted - spectrum)))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, target)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
