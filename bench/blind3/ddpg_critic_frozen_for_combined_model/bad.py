# source: https://github.com/keras-rl/keras-rl/issues/131
# cause: sources-mismatch
# weights: q_hidden/kernel, q_hidden/bias, q_out/kernel, q_out/bias
# mode: fit
# summary: a Keras-2-style DDPG compiles the critic, sets critic.trainable = False so the combined actor model (state -> critic(state, actor(state))) trains only the actor, then alternates critic.train_on_batch and combined.train_on_batch; Keras 3 reads the flag when the critic's own step is traced, so the critic never learns its TD targets
# lint: no (the flag is read when Keras traces each model's step: only the order at run time shows it)
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

critic.trainable = False  # expect: sources-mismatch primary
combined_in = tf.keras.Input((4,))
combined = tf.keras.Model(combined_in, critic([combined_in, actor(combined_in)]), name="combined")
combined.compile(optimizer=tf.keras.optimizers.Adam(1e-2),
                 loss=lambda y_true, y_pred: -tf.reduce_mean(y_pred))

before = [w.numpy().copy() for w in critic.weights]
for step in range(4):
    batch = slice(16 * step, 16 * step + 16)
    critic.train_on_batch([states[batch], actions[batch]], td_targets[batch])  # accept: sources-mismatch
    combined.train_on_batch(states[batch], np.zeros((16, 1), "float32"))
print("critic changed:", [bool(np.any(b != w.numpy())) for b, w in zip(before, critic.weights)])
