# summary: a DDPG critic update in a tf.function: the target value reads the target actor and target critic (built by the same factories as the online ones), the gradient is taken w.r.t. the online critic only
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
STATE, ACTION = 3, 1


def get_actor(name, prefix=""):
    inputs = tf.keras.Input((STATE,))
    hidden = tf.keras.layers.Dense(16, activation="relu", name=prefix + "a_h")(inputs)
    mu = tf.keras.layers.Dense(ACTION, activation="tanh", name=prefix + "a_mu")(hidden)
    return tf.keras.Model(inputs, mu, name=name)


def get_critic(name, prefix=""):
    state_in = tf.keras.Input((STATE,))
    action_in = tf.keras.Input((ACTION,))
    joined = tf.keras.layers.Concatenate()([state_in, action_in])
    hidden = tf.keras.layers.Dense(16, activation="relu", name=prefix + "q_h")(joined)
    return tf.keras.Model([state_in, action_in],
                          tf.keras.layers.Dense(1, name=prefix + "q")(hidden), name=name)


actor, target_actor = get_actor("actor"), get_actor("target_actor", "t_")
critic, target_critic = get_critic("critic"), get_critic("target_critic", "t_")
target_actor.set_weights(actor.get_weights())
target_critic.set_weights(critic.get_weights())
optimizer = tf.keras.optimizers.Adam(1e-3)
rng = np.random.default_rng(8)
states = tf.constant(rng.normal(size=(16, STATE)).astype("float32"))
actions = tf.constant(rng.uniform(-1, 1, size=(16, ACTION)).astype("float32"))
rewards = tf.constant(rng.normal(size=(16, 1)).astype("float32"))
next_states = tf.constant(rng.normal(size=(16, STATE)).astype("float32"))


@tf.function
def update_critic(s, a, r, s2):
    with tf.GradientTape() as tape:
        y = r + 0.99 * target_critic([s2, target_actor(s2, training=True)], training=True)
        q = critic([s, a], training=True)
        loss = tf.reduce_mean(tf.square(y - q))
    grads = tape.gradient(loss, critic.trainable_variables)
    optimizer.apply_gradients(zip(grads, critic.trainable_variables))
    return grads


grads = update_critic(states, actions, rewards, next_states)
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads), grads
print("critic grads:", [float(tf.reduce_sum(tf.abs(g))) for g in grads])
