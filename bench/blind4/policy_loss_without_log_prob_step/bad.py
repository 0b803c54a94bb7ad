# source: https://github.com/danijar/dreamerv3/issues/75
# cause: non-differentiable-op|integer-dtype
# weights: policy/pi_hidden/kernel, policy/pi_hidden/bias, policy/pi_logits/kernel, policy/pi_logits/bias
# mode: function
# summary: a bandit policy samples actions with tf.random.categorical and its policy-gradient loss multiplies the advantage by the one-hot of the sampled action, leaving out the log-probability of that action; the loss reads only the integer sample, which carries no gradient, and every policy weight gets None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(75)
contexts = rng.normal(size=(64, 5)).astype("float32")
best_arm = rng.integers(0, 3, size=(64,))

policy = tf.keras.Sequential([tf.keras.Input((5,)),
                              tf.keras.layers.Dense(8, activation="relu", name="pi_hidden"),
                              tf.keras.layers.Dense(3, name="pi_logits")], name="policy")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(states, best):
    with tf.GradientTape() as tape:
        logits = policy(states, training=True)
        actions = tf.random.categorical(logits, 1, seed=75)[:, 0]  # accept: non-differentiable-op|integer-dtype
        reward = tf.cast(tf.equal(actions, best), tf.float32)
        advantage = reward - tf.reduce_mean(reward)
        taken = tf.one_hot(actions, 3)
        loss = -tf.reduce_mean(tf.reduce_sum(taken, axis=1) * advantage)  # expect: non-differentiable-op|integer-dtype primary
    return tape.gradient(loss, policy.trainable_variables)


grads = train_step(contexts, best_arm)
print("grads are None:", [g is None for g in grads])
