# source: https://stackoverflow.com/questions/49801638/normalizing-rewards-to-generate-returns-in-reinforcement-learning/50574354
# cause: zero-at-runtime
# weights: bandit_policy/arm_hidden/kernel, bandit_policy/arm_hidden/bias, bandit_policy/arm_logits/kernel, bandit_policy/arm_logits/bias
# mode: function
# summary: a REINFORCE agent on one-step episodes standardises the returns of each episode before the update, as the usual per-episode recipe does; an episode has one return, (G - mean) / (std + eps) is exactly 0, and the policy loss gives every weight an exact zero gradient
# lint: no (standardising returns is the usual recipe; it is zero only for a single return)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(7)
context = rng.normal(size=(1, 5)).astype("float32")
action = np.array([2], dtype="int32")
reward = np.array([1.5], dtype="float32")

policy = keras.Sequential([keras.Input((5,)),
                           keras.layers.Dense(8, activation="relu", name="arm_hidden"),
                           keras.layers.Dense(4, name="arm_logits")], name="bandit_policy")


@tf.function
def train_step(obs, taken, returns):
    advantage = (returns - tf.reduce_mean(returns)) / (tf.math.reduce_std(returns) + 1e-8)  # expect: zero-at-runtime primary
    with tf.GradientTape() as tape:
        logp = tf.reduce_sum(tf.nn.log_softmax(policy(obs, training=True)) * tf.one_hot(taken, 4), axis=-1)
        loss = -tf.reduce_mean(logp * advantage)
    return tape.gradient(loss, policy.trainable_variables)


grads = train_step(context, action, reward)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(policy.trainable_variables, grads)})
