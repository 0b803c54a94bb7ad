# source: https://github.com/google/qhbm-library/issues/78
# cause: custom-gradient
# rule: TM203
# weights: log_scale
# mode: function
# summary: a tf.custom_gradient energy function reads a module-level tf.Variable (a learned log-scale) in its forward pass, but its grad function takes only the upstream gradient; in the traced step TensorFlow raises TypeError (grad_fn must accept 'variables')
# lint: yes
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
    value = 0.5 * scale * tf.reduce_sum(tf.square(points), axis=-1)

    def backward(upstream):  # expect: custom-gradient primary
        return upstream[:, None] * scale * points

    return value, backward


@tf.function
def train_step(points):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(energy(points)) - 1.5 * log_scale
    grads = tape.gradient(loss, [log_scale])
    optimizer.apply_gradients(zip(grads, [log_scale]))
    return loss


print(float(train_step(samples)))
