# summary: a traced DQN step takes Q(s, a) from the online network and the bootstrap from a target network copied with set_weights and kept by a soft assign update; the copy is never trained by gradient, by design
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)

rng = np.random.default_rng(3)
states = rng.normal(size=(32, 4)).astype("float32")
next_states = rng.normal(size=(32, 4)).astype("float32")
actions = rng.integers(0, 2, size=32)
rewards = rng.normal(size=32).astype("float32")


def make_q(name):
    return tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(16, activation="relu", name="cq_hidden"),
                                tf.keras.layers.Dense(2, name="cq_out")], name=name)


online, target = make_q("online_q"), make_q("target_q")
target.set_weights(online.get_weights())
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def dqn_step(s, a, r, s2):
    y = r + 0.99 * tf.reduce_max(target(s2), axis=1)
    with tf.GradientTape() as tape:
        q_taken = tf.gather(online(s), a, batch_dims=1)
        loss = tf.reduce_mean(tf.square(y - q_taken))
    grads = tape.gradient(loss, online.trainable_variables)
    optimizer.apply_gradients(zip(grads, online.trainable_variables))
    for t, o in zip(target.variables, online.variables):
        t.assign(0.95 * t + 0.05 * o)
    return grads


grads = dqn_step(states, actions, rewards, next_states)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
