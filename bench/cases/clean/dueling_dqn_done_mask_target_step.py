# summary: a dueling DQN: value + advantage minus its mean, the taken action's Q by a one_hot mask, targets from a target network's reduce_max times (1 - done), Huber loss, clipnorm, periodic set_weights copy
# source: https://keras.io/examples/rl/deep_q_network_breakout/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(14)
rng = np.random.default_rng(14)
n_actions, batch = 3, 16


def make_q():
    s = keras.Input((6,))
    h = layers.Dense(16, activation="relu", name="torso")(s)
    value = layers.Dense(1, name="value")(h)
    adv = layers.Dense(n_actions, name="advantage")(h)
    q = value + adv - keras.ops.mean(adv, axis=1, keepdims=True)
    return keras.Model(s, q)


online, target = make_q(), make_q()
target.set_weights(online.get_weights())
optimizer = keras.optimizers.Adam(1e-3, clipnorm=1.0)
huber = keras.losses.Huber()
gamma = 0.99


@tf.function
def learn(states, actions, rewards, next_states, dones):
    future = target(next_states)
    updated_q = rewards + gamma * tf.reduce_max(future, axis=1) * (1.0 - dones)
    masks = tf.one_hot(actions, n_actions)
    with tf.GradientTape() as tape:
        q_values = online(states)
        q_action = tf.reduce_sum(q_values * masks, axis=1)
        loss = huber(updated_q, q_action)
    grads = tape.gradient(loss, online.trainable_variables)
    optimizer.apply_gradients(zip(grads, online.trainable_variables))
    return loss


before = [w.numpy().copy() for w in online.trainable_variables]
for step in range(4):
    s = rng.normal(size=(batch, 6)).astype("float32")
    a = rng.integers(0, n_actions, size=batch).astype("int32")
    r = rng.normal(size=batch).astype("float32")
    s2 = rng.normal(size=(batch, 6)).astype("float32")
    d = (rng.uniform(size=batch) < 0.2).astype("float32")
    learn(s, a, r, s2, d)
    if step % 2 == 1:
        target.set_weights(online.get_weights())
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, online.trainable_variables))
