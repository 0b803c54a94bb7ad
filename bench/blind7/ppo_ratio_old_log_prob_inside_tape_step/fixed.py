# summary: the old log-probabilities are computed once at rollout time, outside the update step, and passed in as data; the ratio then depends on the current policy only and every actor weight gets a gradient
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


rollout_logp = log_prob(actor(states), actions)


@tf.function
def train_step(obs, taken, adv, old_logp):
    with tf.GradientTape() as tape:
        logp = log_prob(actor(obs, training=True), taken)
        ratio = tf.exp(logp - old_logp)
        clipped = tf.clip_by_value(ratio, 0.8, 1.2)
        loss = -tf.reduce_mean(tf.minimum(ratio * adv, clipped * adv))
    return tape.gradient(loss, actor.trainable_variables)


grads = train_step(states, actions, advantages, rollout_logp)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
