# summary: the real and imaginary halves are joined with tf.complex before tf.math.angle, whose complex gradient reaches every weight
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(50854)
x = rng.normal(size=(32, 6)).astype("float32")
target_phase = rng.uniform(-np.pi, np.pi, size=(32, 4)).astype("float32")

model = keras.Sequential([keras.Input((6,)),
                          keras.layers.Dense(16, activation="tanh", name="phase_hidden"),
                          keras.layers.Dense(8, name="phase_spectrum")], name="phase_net")


@tf.function
def train_step(features, phase):
    with tf.GradientTape() as tape:
        spectrum = model(features, training=True)
        predicted_phase = tf.math.angle(tf.complex(spectrum[:, :4], spectrum[:, 4:]))
        loss = tf.reduce_mean(1.0 - tf.cos(predicted_phase - phase))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, target_phase)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
