# source: https://github.com/openai/baselines/issues/645
# cause: not-connected
# weights: actor/a_hidden/kernel, actor/a_hidden/bias, actor/a_out/kernel, actor/a_out/bias
# mode: eager
# summary: a DDPG actor update computes the actor's actions but scores the replay buffer's stored actions with the critic; the policy-gradient loss then does not depend on the actor, and tape.gradient returns None for every actor weight
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(645)
states = tf.constant(rng.normal(size=(32, 4)).astype("float32"))
buffer_actions = tf.constant(rng.uniform(-1.0, 1.0, size=(32, 2)).astype("float32"))

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
    proposed = actor(states, training=True)
    q_values = critic([states, buffer_actions])  # expect: not-connected primary
    actor_loss = -tf.reduce_mean(q_values)
grads = tape.gradient(actor_loss, actor.trainable_variables)
print("actor grads are None:", [g is None for g in grads])
