# summary: the loss is computed with the online network itself
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(24)
s = rng.normal(size=(16, 4)).astype("float32")
q_target = rng.normal(size=(16, 2)).astype("float32")


def q_net(name):
    return tf.keras.Sequential([tf.keras.layers.Input((4,)),
                                tf.keras.layers.Dense(8, activation="relu", name="q1"),
                                tf.keras.layers.Dense(2, name="q2")], name=name)


online, shadow = q_net("online"), q_net("shadow")
shadow.set_weights(online.get_weights())
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(online(s) - q_target))
grads = tape.gradient(loss, online.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
