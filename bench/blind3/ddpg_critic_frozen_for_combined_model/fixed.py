# summary: the critic stays trainable and the combined actor update differentiates only the actor's variables in a custom step (the critic is held fixed by the source list, not by its trainable flag), so the critic learns its TD targets and the actor trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(131)
states = rng.normal(size=(64, 4)).astype("float32")
actions = rng.uniform(-1.0, 1.0, size=(64, 2)).astype("float32")
td_targets = (states[:, :1] - actions[:, 1:]).astype("float32")

state_in = tf.keras.Input((4,))
action_in = tf.keras.Input((2,))
q_hidden = tf.keras.layers.Dense(16, activation="relu", name="q_hidden")(
    tf.keras.layers.Concatenate()([state_in, action_in]))
critic = tf.keras.Model([state_in, action_in], tf.keras.layers.Dense(1, name="q_out")(q_hidden),
                        name="critic")
critic.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
actor = tf.keras.Sequential([tf.keras.Input((4,)),
                             tf.keras.layers.Dense(2, activation="tanh", name="a_out")], name="actor")
actor_optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def actor_step(batch_states):
    with tf.GradientTape() as tape:
        loss = -tf.reduce_mean(critic([batch_states, actor(batch_states, training=True)]))
    grads = tape.gradient(loss, actor.trainable_variables)
    actor_optimizer.apply_gradients(zip(grads, actor.trainable_variables))
    return loss


weights = critic.trainable_weights + actor.trainable_weights
before = [w.numpy().copy() for w in weights]
for step in range(4):
    batch = slice(16 * step, 16 * step + 16)
    critic.train_on_batch([states[batch], actions[batch]], td_targets[batch])
    actor_step(states[batch])
assert len(weights) == 6
assert all(np.any(b != w.numpy()) for b, w in zip(before, weights, strict=True))
