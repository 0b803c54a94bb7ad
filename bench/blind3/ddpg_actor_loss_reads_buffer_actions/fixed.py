# summary: the critic scores the actor's own actions Q(s, mu(s)), so the actor loss reaches every actor weight (the critic is left out of the sources, not frozen)
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
    q_values = critic([states, proposed])
    actor_loss = -tf.reduce_mean(q_values)
grads = tape.gradient(actor_loss, actor.trainable_variables)
actor_optimizer.apply_gradients(zip(grads, actor.trainable_variables))
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
