# summary: the grad function takes variables= and returns the gradient of the energy with respect to the log-scale it read, so the step trains it
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(78)
samples = tf.constant(rng.normal(size=(16, 3)).astype("float32"))
log_scale = tf.Variable(0.0, name="log_scale")
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.custom_gradient
def energy(points):
    scale = tf.exp(log_scale)
    half_norm = 0.5 * tf.reduce_sum(tf.square(points), axis=-1)
    value = scale * half_norm

    def backward(upstream, variables=None):
        to_points = upstream[:, None] * scale * points
        to_scale = [tf.reduce_sum(upstream * value)] * len(variables or [])
        return to_points, to_scale

    return value, backward


@tf.function
def train_step(points):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(energy(points)) - 1.5 * log_scale
    grads = tape.gradient(loss, [log_scale])
    optimizer.apply_gradients(zip(grads, [log_scale]))
    return grads


grads = train_step(samples)
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads), grads
print("ok")
