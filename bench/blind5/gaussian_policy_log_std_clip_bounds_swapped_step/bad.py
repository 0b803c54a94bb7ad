# source: https://github.com/tensorforce/tensorforce/issues/161
# cause: zero-at-runtime
# weights: log_std_head/kernel, log_std_head/bias
# mode: function
# summary: a Gaussian policy clips its predicted log standard deviation with the bounds in the wrong order, tf.clip_by_value(log_std, 2.0, -20.0); with min > max every value comes out as the same constant, so the log-std head gets exactly zero gradients from the policy-gradient loss while the mean head trains
# lint: yes
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
        log_std = tf.clip_by_value(log_std, 2.0, -20.0)  # expect: zero-at-runtime primary
        logp = -0.5 * tf.square((a - mu) / tf.exp(log_std)) - log_std
        loss = -tf.reduce_mean(logp[:, 0] * adv)
    return tape.gradient(loss, policy.trainable_variables)


grads = train_step(obs, actions, advantages)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(policy.trainable_variables, grads)})
