# summary: the rollout keeps the TensorArray that write returns (states = states.write(t, h)), so stack() holds the predicted states and every weight of the encoder and the step gets a gradient
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
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(x0, target):
    with tf.GradientTape() as tape:
        h = encoder(x0)
        states = tf.TensorArray(tf.float32, size=4, element_shape=(8, 5))
        for t in tf.range(4):
            h = step(h)
            states = states.write(t, h)
        loss = tf.reduce_mean(tf.square(states.stack() - target))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return loss, grads


loss, grads = train_step(start, trajectory)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
