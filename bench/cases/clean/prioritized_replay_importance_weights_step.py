# summary: prioritised replay for a DQN: importance-sampling weights (N * p)^-beta normalised by their max, the TD error's absolute value read on the host after the step to update priorities, a target network copy, a tf.function step
# source: https://www.tensorflow.org/agents/tutorials/1_dqn_tutorial
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(41)
rng = np.random.default_rng(41)
capacity, batch, n_actions = 64, 16, 2
states = rng.normal(size=(capacity, 4)).astype("float32")
actions = rng.integers(0, n_actions, size=capacity).astype("int32")
rewards = rng.normal(size=capacity).astype("float32")
next_states = rng.normal(size=(capacity, 4)).astype("float32")
priorities = np.ones(capacity, dtype="float64")


def q_net():
    return keras.Sequential([keras.Input((4,)), layers.Dense(16, activation="relu", name="q_h"),
                             layers.Dense(n_actions, name="q_out")])


online, target = q_net(), q_net()
target.set_weights(online.get_weights())
optimizer = keras.optimizers.Adam(1e-3)


@tf.function
def train_step(s, a, r, s2, is_weights):
    target_q = r + 0.99 * tf.reduce_max(target(s2), axis=1)
    with tf.GradientTape() as tape:
        q = tf.gather(online(s), a, batch_dims=1)
        td_error = target_q - q
        loss = tf.reduce_mean(is_weights * tf.square(td_error))
    grads = tape.gradient(loss, online.trainable_variables)
    optimizer.apply_gradients(zip(grads, online.trainable_variables))
    return td_error


before = [w.numpy().copy() for w in online.trainable_variables]
beta = 0.4
for step in range(4):
    probs = priorities ** 0.6 / np.sum(priorities ** 0.6)
    idx = rng.choice(capacity, size=batch, p=probs)
    weights = (capacity * probs[idx]) ** (-beta)
    weights = (weights / weights.max()).astype("float32")
    td = train_step(states[idx], actions[idx], rewards[idx], next_states[idx], weights)
    priorities[idx] = np.abs(td.numpy()) + 1e-6
    if step == 1:
        target.set_weights(online.get_weights())
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, online.trainable_variables))
