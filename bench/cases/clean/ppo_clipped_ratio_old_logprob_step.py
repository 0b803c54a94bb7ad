# source: https://keras.io/examples/rl/ppo_cartpole/
# summary: PPO's clipped surrogate objective: old log-probabilities stored as constants from the rollout, the ratio exp(logp - old_logp) clipped by tf.clip_by_value and combined with tf.minimum/tf.where on the sign of the advantage, the policy and value networks trained by separate tapes in tf.function steps
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
actor = keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="tanh"),
                          keras.layers.Dense(2)], name="actor")
critic = keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="tanh"),
                           keras.layers.Dense(1)], name="critic")
pi_opt, v_opt = keras.optimizers.Adam(3e-4), keras.optimizers.Adam(1e-3)
CLIP = 0.2
rng = np.random.default_rng(20)
obs = tf.constant(rng.normal(size=(32, 4)), tf.float32)
actions = tf.random.categorical(actor(obs), 1)[:, 0]
old_logp = tf.reduce_sum(tf.one_hot(actions, 2) * tf.nn.log_softmax(actor(obs)), axis=1)
advantages = tf.constant(rng.normal(size=32), tf.float32)
returns = tf.constant(rng.normal(size=32), tf.float32)


@tf.function
def train_policy(o, a, logp_old, adv):
    with tf.GradientTape() as tape:
        logp = tf.reduce_sum(tf.one_hot(a, 2) * tf.nn.log_softmax(actor(o)), axis=1)
        ratio = tf.exp(logp - logp_old)
        min_adv = tf.where(adv > 0, (1 + CLIP) * adv, (1 - CLIP) * adv)
        loss = -tf.reduce_mean(tf.minimum(ratio * adv, min_adv))
    grads = tape.gradient(loss, actor.trainable_variables)
    pi_opt.apply_gradients(zip(grads, actor.trainable_variables))
    return grads


@tf.function
def train_value(o, ret):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((ret - tf.squeeze(critic(o), 1)) ** 2)
    grads = tape.gradient(loss, critic.trainable_variables)
    v_opt.apply_gradients(zip(grads, critic.trainable_variables))
    return grads


grads = list(train_policy(obs, actions, old_logp, advantages)) + list(train_value(obs, returns))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
