# summary: the log standard deviation is clipped to [-20, 2] (min first), so inside the range it passes through and both heads get gradients
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(161)
obs = rng.normal(size=(64, 3)).astype("float32")
actions = rng.normal(size=(64, 1)).astype("float32")
advantages = rng.normal(size=(64,)).astype("float32")

trunk = tf.keras.layers.Dense(16, activation="tanh", name="pol_trunk")
mean_head = tf.keras.layers.Dense(1, name="mean_head")
log_std_head = tf.keras.layers.Dense(1, name="log_std_head")
inputs = tf.keras.Input((3,))
h = trunk(inputs)
policy = tf.keras.Model(inputs, [mean_head(h), log_std_head(h)], name="gauss_policy")


@tf.function
def train_step(o, a, adv):
    with tf.GradientTape() as tape:
        mu, log_std = policy(o, training=True)
        log_std = tf.clip_by_value(log_std, -20.0, 2.0)
        logp = -0.5 * tf.square((a - mu) / tf.exp(log_std)) - log_std
        loss = -tf.reduce_mean(logp[:, 0] * adv)
    return tape.gradient(loss, policy.trainable_variables)


grads = train_step(obs, actions, advantages)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
