# summary: DQN with a target network: targets from the target net, then an EMA (Polyak) update
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(101)
s = rng.normal(size=(16, 4)).astype("float32")
s_next = rng.normal(size=(16, 4)).astype("float32")
actions = rng.integers(0, 2, size=16)
rewards = rng.normal(size=16).astype("float32")


def q_net(name):
    return tf.keras.Sequential([tf.keras.layers.Input((4,)),
                                tf.keras.layers.Dense(8, activation="relu", name="h"),
                                tf.keras.layers.Dense(2, name="q")], name=name)


online, target = q_net("online"), q_net("target")
target.set_weights(online.get_weights())
optimizer = tf.keras.optimizers.Adam(1e-3)

for _ in range(2):
    with tf.GradientTape() as tape:
        q = tf.gather(online(s), actions, batch_dims=1)
        y = rewards + 0.99 * tf.reduce_max(target(s_next), axis=-1)
        loss = tf.reduce_mean(tf.square(y - q))
    grads = tape.gradient(loss, online.trainable_variables)
    optimizer.apply_gradients(zip(grads, online.trainable_variables, strict=False))
    for t, o in zip(target.weights, online.weights, strict=False):
        t.assign(0.99 * t + 0.01 * o)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
