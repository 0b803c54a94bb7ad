# summary: DQN: Q(s, a) picked with tf.one_hot(actions) * q and reduce_sum, the target from reduce_max of a target network refreshed by set_weights every few steps, Huber loss, a @tf.function step
# source: https://keras.io/examples/rl/deep_q_network_breakout/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(7)
rng = np.random.default_rng(7)
n_actions = 3


def q_net(name):
    return keras.Sequential([keras.Input((6,)), layers.Dense(16, activation="relu"),
                             layers.Dense(n_actions)], name=name)


online, target = q_net("online"), q_net("target")
target.set_weights(online.get_weights())
opt = keras.optimizers.Adam(1e-3, clipnorm=1.0)
huber = keras.losses.Huber()
gamma = 0.99


@tf.function
def learn(s, a, r, s2, done):
    future = target(s2)
    updated_q = r + gamma * tf.reduce_max(future, axis=1) * (1 - done)
    masks = tf.one_hot(a, n_actions)
    with tf.GradientTape() as tape:
        q_values = online(s)
        q_action = tf.reduce_sum(tf.multiply(q_values, masks), axis=1)
        loss = huber(updated_q, q_action)
    grads = tape.gradient(loss, online.trainable_variables)
    opt.apply_gradients(zip(grads, online.trainable_variables))
    return grads


for step in range(4):
    s = rng.normal(size=(8, 6)).astype("float32")
    s2 = rng.normal(size=(8, 6)).astype("float32")
    a = rng.integers(0, n_actions, size=(8,)).astype("int32")
    r = rng.normal(size=(8,)).astype("float32")
    done = (rng.uniform(size=(8,)) < 0.1).astype("float32")
    grads = learn(s, a, r, s2, done)
    if step % 2 == 1:
        target.set_weights(online.get_weights())
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
