# summary: Q(s, a) comes from the online network and only the bootstrap target from the target network, so the online network gets gradients and every one of its weights changes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(8)
states = rng.normal(size=(32, 4)).astype("float32")
next_states = rng.normal(size=(32, 4)).astype("float32")
actions = rng.integers(0, 2, size=32)
rewards = rng.normal(size=32).astype("float32")


def make_q(name):
    return tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(16, activation="relu", name="q_hidden"),
                                tf.keras.layers.Dense(2, name="q_out")], name=name)


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
    return loss


before = [v.numpy().copy() for v in online.trainable_variables]
dqn_step(states, actions, rewards, next_states)
assert len(before) == 4
assert all(np.any(b != v.numpy()) for b, v in zip(before, online.trainable_variables, strict=True))
