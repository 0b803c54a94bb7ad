# source: https://github.com/tensorflow/tensorflow/issues/21985
# cause: not-connected|zero-at-runtime
# weights: ode_field/field_hidden/kernel, ode_field/field_hidden/bias, ode_field/field_out/kernel, ode_field/field_out/bias
# mode: function
# summary: a neural-ODE step integrates a learned vector field with fixed-step Euler in a tf.while_loop whose trip count is int(t_end / dt); the config sets dt = 0.5 for t_end = 0.25, the count is 0, the loop body never runs, the state returned is the initial state, and the vector field gets all-zero gradients (a while_loop reports zeros, not None, for variables its body reads)
# lint: no (the trip count comes from configuration values)
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
n_steps = int(t_end / dt)  # expect: not-connected|zero-at-runtime primary


@tf.function
def train_step(start, target):
    with tf.GradientTape() as tape:
        _, z = tf.while_loop(lambda i, s: i < n_steps,
                             lambda i, s: (i + 1, s + dt * field(s, training=True)),
                             (tf.constant(0), start))
        loss = tf.reduce_mean(tf.square(z - target))
    return tape.gradient(loss, field.trainable_variables)


grads = train_step(z0, z1)
print({v.path: None if g is None else float(tf.reduce_sum(tf.abs(g))) for v, g in zip(field.trainable_variables, grads)})
