# summary: the second Q estimate comes from the second critic, so both critics get gradients from the twin loss
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4103)
states = rng.normal(size=(64, 3)).astype("float32")
actions = rng.uniform(-1, 1, size=(64, 1)).astype("float32")
targets = (states[:, :1] * actions + 0.1 * states[:, 1:2]).astype("float32")


def make_critic(tag):
    return tf.keras.Sequential([tf.keras.Input((4,)),
                                tf.keras.layers.Dense(16, activation="relu", name=f"{tag}_hidden"),
                                tf.keras.layers.Dense(1, name=f"{tag}_out")], name=f"critic_{tag[-1]}")


critic_1 = make_critic("q1")
critic_2 = make_critic("q2")
optimizer = tf.keras.optimizers.Adam(1e-3)
critic_vars = critic_1.trainable_variables + critic_2.trainable_variables


@tf.function
def critic_step(s, a, y):
    sa = tf.concat([s, a], axis=-1)
    with tf.GradientTape() as tape:
        q1 = critic_1(sa, training=True)
        q2 = critic_2(sa, training=True)
        loss = tf.reduce_mean(tf.square(q1 - y)) + tf.reduce_mean(tf.square(q2 - y))
    grads = tape.gradient(loss, critic_vars)
    optimizer.apply_gradients(zip(grads, critic_vars))
    return grads


grads = critic_step(states, actions, targets)
assert len(grads) == 8
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
