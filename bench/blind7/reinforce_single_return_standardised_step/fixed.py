# summary: the returns are standardised across a batch of 16 one-step episodes instead of inside each episode, so the advantages differ from zero and every policy weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(7)
context = rng.normal(size=(16, 5)).astype("float32")
action = rng.integers(0, 4, size=16).astype("int32")
reward = rng.normal(size=16).astype("float32")

policy = keras.Sequential([keras.Input((5,)),
                           keras.layers.Dense(8, activation="relu", name="arm_hidden"),
                           keras.layers.Dense(4, name="arm_logits")], name="bandit_policy")


@tf.function
def train_step(obs, taken, returns):
    advantage = (returns - tf.reduce_mean(returns)) / (tf.math.reduce_std(returns) + 1e-8)
    with tf.GradientTape() as tape:
        logp = tf.reduce_sum(tf.nn.log_softmax(policy(obs, training=True)) * tf.one_hot(taken, 4), axis=-1)
        loss = -tf.reduce_mean(logp * advantage)
    return tape.gradient(loss, policy.trainable_variables)


grads = train_step(context, action, reward)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
