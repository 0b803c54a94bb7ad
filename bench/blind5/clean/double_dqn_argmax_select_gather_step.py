# source: https://github.com/facebookresearch/ReAgent/issues/88
# summary: a double-DQN update picks the next action with tf.argmax of the online network, evaluates it with the target network (both outside the tape, as the bootstrap target), and gathers Q(s, a) of the online network with integer actions inside the tape; argmax and integer indices only select, so every online weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(88)
s = rng.normal(size=(32, 4)).astype("float32")
s2 = rng.normal(size=(32, 4)).astype("float32")
a = rng.integers(0, 3, size=32)
r = rng.normal(size=32).astype("float32")


def make_q(name):
    return tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(16, activation="relu", name="dd_hidden"),
                                tf.keras.layers.Dense(3, name="dd_out")], name=name)


online, target = make_q("dd_online"), make_q("dd_target")
target.set_weights(online.get_weights())


@tf.function
def train_step(states, actions, rewards, next_states):
    best = tf.argmax(online(next_states), axis=1, output_type=tf.int32)
    y = rewards + 0.99 * tf.gather(target(next_states), best, batch_dims=1)
    with tf.GradientTape() as tape:
        q_taken = tf.gather(online(states), actions, batch_dims=1)
        loss = tf.reduce_mean(tf.square(y - q_taken))
    return tape.gradient(loss, online.trainable_variables)


grads = train_step(s, a, r, s2)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
