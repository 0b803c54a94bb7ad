# source: https://github.com/Dekki-Aero/DDPG/issues/2
# summary: a DDPG actor update takes dQ/da on one tape (watching the action tensor) and pushes -dQ/da through the actor on a second tape with output_gradients; two tapes and a watched tensor look unusual, but the chain rule is complete and every actor weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2)
states = tf.constant(rng.normal(size=(32, 4)).astype("float32"))

actor = tf.keras.Sequential([tf.keras.Input((4,)),
                             tf.keras.layers.Dense(16, activation="relu", name="a_hidden"),
                             tf.keras.layers.Dense(2, activation="tanh", name="a_out")], name="actor")
state_in = tf.keras.Input((4,))
action_in = tf.keras.Input((2,))
q_hidden = tf.keras.layers.Dense(16, activation="relu", name="q_hidden")(
    tf.keras.layers.Concatenate()([state_in, action_in]))
critic = tf.keras.Model([state_in, action_in], tf.keras.layers.Dense(1, name="q_out")(q_hidden),
                        name="critic")
actor_optimizer = tf.keras.optimizers.Adam(1e-3)

with tf.GradientTape() as tape:
    actions = actor(states)
    tape.watch(actions)
    q = critic([states, actions])
dq_da = tape.gradient(q, actions)

with tf.GradientTape() as tape:
    actions = actor(states, training=True)
grads = tape.gradient(actions, actor.trainable_variables, output_gradients=-dq_da / 32.0)
actor_optimizer.apply_gradients(zip(grads, actor.trainable_variables))
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
