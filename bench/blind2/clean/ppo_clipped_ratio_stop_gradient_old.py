# source: https://github.com/hill-a/stable-baselines/issues/672
# summary: a PPO update keeps the old log-probabilities and the stored actions behind tf.stop_gradient on purpose and clips the probability ratio; the new policy's log-probability carries the gradient, so every policy weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(672)
states = rng.normal(size=(64, 4)).astype("float32")
stored_actions = rng.integers(0, 3, size=(64,)).astype("int32")
advantages = rng.normal(size=(64,)).astype("float32")
policy = tf.keras.Sequential([tf.keras.Input((4,)),
                              tf.keras.layers.Dense(16, activation="tanh", name="ppo_hidden"),
                              tf.keras.layers.Dense(3, name="ppo_logits")], name="ppo_policy")
old_log_probs = tf.stop_gradient(tf.gather(tf.nn.log_softmax(policy(states) * 0.9), stored_actions, batch_dims=1))
optimizer = tf.keras.optimizers.Adam(3e-3)


@tf.function
def ppo_step(s, a, adv, old):
    with tf.GradientTape() as tape:
        new = tf.gather(tf.nn.log_softmax(policy(s, training=True)), tf.stop_gradient(a), batch_dims=1)
        ratio = tf.exp(new - old)
        clipped = tf.clip_by_value(ratio, 0.8, 1.2)
        loss = -tf.reduce_mean(tf.minimum(ratio * adv, clipped * adv))
    grads = tape.gradient(loss, policy.trainable_variables)
    optimizer.apply_gradients(zip(grads, policy.trainable_variables))
    return grads


grads = ppo_step(states, stored_actions, advantages, old_log_probs)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
