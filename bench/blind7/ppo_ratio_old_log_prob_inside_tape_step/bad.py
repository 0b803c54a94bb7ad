# source: https://github.com/abhisheksuran/Reinforcement_Learning/issues/4
# cause: zero-at-runtime
# weights: ppo_actor/policy_hidden/kernel, ppo_actor/policy_hidden/bias, ppo_actor/policy_logits/kernel, ppo_actor/policy_logits/bias
# mode: function
# summary: a PPO update step recomputes the "old" log-probabilities with the same actor inside the tape (instead of storing them at rollout time); the ratio exp(logp - old_logp) is exactly 1 and both terms carry the same gradient with opposite signs, so every actor weight gets an exact zero gradient
# lint: no (two forward passes of the same actor are valid code; they cancel only because they are identical)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(4)
states = rng.normal(size=(32, 4)).astype("float32")
actions = rng.integers(0, 3, size=32).astype("int32")
advantages = rng.normal(size=32).astype("float32")

actor = keras.Sequential([keras.Input((4,)),
                          keras.layers.Dense(16, activation="tanh", name="policy_hidden"),
                          keras.layers.Dense(3, name="policy_logits")], name="ppo_actor")


def log_prob(logits, taken):
    return tf.reduce_sum(tf.nn.log_softmax(logits) * tf.one_hot(taken, 3), axis=-1)


@tf.function
def train_step(obs, taken, adv):
    with tf.GradientTape() as tape:
        logp = log_prob(actor(obs, training=True), taken)
        old_logp = log_prob(actor(obs, training=True), taken)  # expect: zero-at-runtime primary
        ratio = tf.exp(logp - old_logp)
        clipped = tf.clip_by_value(ratio, 0.8, 1.2)
        loss = -tf.reduce_mean(tf.minimum(ratio * adv, clipped * adv))
    return tape.gradient(loss, actor.trainable_variables)


grads = train_step(states, actions, advantages)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(actor.trainable_variables, grads)})
