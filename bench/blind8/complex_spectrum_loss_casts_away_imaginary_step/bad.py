# source: https://github.com/tensorflow/tensorflow/pull/17110
# cause: zero-at-runtime|not-connected
# rule: -
# weights: spectrum_imag/kernel, spectrum_imag/bias
# mode: function
# summary: a model predicts a complex spectrum from a real-part head and an imaginary-part head joined with tf.complex; the loss compares prediction and target after tf.cast(..., tf.float32), which keeps the real part only, so the imaginary head gets exactly zero gradients in the traced step while the real head and the trunk train
# lint: no (tf.cast is differentiable; that its input is complex is a dtype fact)
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
        loss = tf.reduce_mean(tf.square(tf.cast(predicted, tf.float32) - tf.cast(spectrum, tf.float32)))  # expect: zero-at-runtime|not-connected primary
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, target)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(model.trainable_variables, grads)})
