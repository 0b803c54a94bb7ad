# summary: a double-DQN step evaluates the online network twice on purpose (current and next states, the next action chosen by it) and a target copy made by the same code once; only the online weights are sources: nothing to report
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(9)
rng = np.random.default_rng(9)
states = rng.normal(size=(32, 4)).astype("float32")
next_states = rng.normal(size=(32, 4)).astype("float32")
actions = rng.integers(0, 2, size=(32,)).astype("int32")
rewards = rng.normal(size=(32,)).astype("float32")


def make_q(name):
    return tf.keras.Sequential([tf.keras.Input((4,)),
                                tf.keras.layers.Dense(8, activation="relu", name="hidden"),
                                tf.keras.layers.Dense(2, name="q")], name=name)


online, target = make_q("online"), make_q("target")
target.set_weights(online.get_weights())


@tf.function
def step(s, a, r, s2):
    with tf.GradientTape() as tape:
        q = tf.gather(online(s), a, batch_dims=1)
        best_next = tf.argmax(online(s2), axis=-1, output_type=tf.int32)
        q_next = tf.gather(target(s2), best_next, batch_dims=1)
        loss = tf.reduce_mean(tf.square(q - tf.stop_gradient(r + 0.9 * q_next)))
    return tape.gradient(loss, online.trainable_variables)


grads = step(states, actions, rewards, next_states)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads), grads
print("ok")
