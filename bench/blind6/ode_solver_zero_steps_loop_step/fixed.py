# summary: the number of Euler steps is rounded up and is at least 1 (and dt shrinks to fit), so the loop body runs, the final state depends on the vector field and every field weight gets a gradient
import math

import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(21985)
z0 = rng.normal(size=(16, 3)).astype("float32")
z1 = (z0 * 0.8 + 0.1).astype("float32")
t_end, dt = 0.25, 0.5

field = keras.Sequential([keras.Input((3,)),
                          keras.layers.Dense(16, activation="tanh", name="field_hidden"),
                          keras.layers.Dense(3, name="field_out")], name="ode_field")
n_steps = max(1, math.ceil(t_end / dt))
dt = t_end / n_steps


@tf.function
def train_step(start, target):
    with tf.GradientTape() as tape:
        _, z = tf.while_loop(lambda i, s: i < n_steps,
                             lambda i, s: (i + 1, s + dt * field(s, training=True)),
                             (tf.constant(0), start))
        loss = tf.reduce_mean(tf.square(z - target))
    return tape.gradient(loss, field.trainable_variables)


grads = train_step(z0, z1)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
