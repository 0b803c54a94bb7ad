# source: https://github.com/tensorflow/tensorflow/issues/37245
# cause: not-connected
# weights: rollout_encoder/kernel, rollout_encoder/bias, rollout_step/kernel, rollout_step/bias
# mode: function
# summary: a learned dynamics model rolls its state forward in a tf.range loop of a @tf.function step and collects the states in a tf.TensorArray, but calls states.write(t, h) without keeping the array it returns; in graph mode write is not in place, so stack() returns the untouched zero-filled array, the loss reads no weight and every gradient is None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(37245)
start = rng.normal(size=(8, 3)).astype("float32")
trajectory = rng.normal(size=(4, 8, 5)).astype("float32")  # (steps, batch, state)

encoder = tf.keras.layers.Dense(5, activation="tanh", name="rollout_encoder")
step = tf.keras.layers.Dense(5, activation="tanh", name="rollout_step")
encoder.build((None, 3))
step.build((None, 5))
sources = encoder.trainable_variables + step.trainable_variables


@tf.function
def train_step(x0, target):
    with tf.GradientTape() as tape:
        h = encoder(x0)
        states = tf.TensorArray(tf.float32, size=4, element_shape=(8, 5))
        for t in tf.range(4):
            h = step(h)
            states.write(t, h)  # expect: not-connected primary
        loss = tf.reduce_mean(tf.square(states.stack() - target))
    return loss, tape.gradient(loss, sources)


loss, grads = train_step(start, trajectory)
print("loss:", float(loss), "grads are None:", [g is None for g in grads])
