# source: https://github.com/ray-project/ray/issues/4103
# cause: not-connected
# weights: critic_2/q2_hidden/kernel, critic_2/q2_hidden/bias, critic_2/q2_out/kernel, critic_2/q2_out/bias
# mode: function
# summary: a TD3-style twin critic update evaluates the first critic twice (a copy-paste slip), so the second critic's loss never reads the second critic and its gradients are None
# lint: yes
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
        q2 = critic_1(sa, training=True)  # expect: not-connected primary
        loss = tf.reduce_mean(tf.square(q1 - y)) + tf.reduce_mean(tf.square(q2 - y))
    return tape.gradient(loss, critic_vars)


grads = critic_step(states, actions, targets)
print("critic_2 grads None:", [g is None for g in grads[4:]])
