# source: https://github.com/tensorflow/tensorflow/issues/17735
# cause: variable-assign|host-round-trip
# weights: online/q1/kernel, online/q1/bias, online/q2/kernel, online/q2/bias
# mode: eager
# summary: the online weights are copied into a second network with set_weights(get_weights())
# lint: yes
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
with tf.GradientTape() as tape:
    shadow.set_weights(online.get_weights())  # expect: variable-assign|host-round-trip primary
    loss = tf.reduce_mean(tf.square(shadow(s) - q_target))
grads = tape.gradient(loss, online.trainable_variables)
print(grads)
