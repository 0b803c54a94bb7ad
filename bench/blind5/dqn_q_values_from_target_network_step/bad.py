# source: https://github.com/google-deepmind/dqn/issues/8
# cause: not-connected|sources-mismatch
# weights: online_q/q_hidden/kernel, online_q/q_hidden/bias, online_q/q_out/kernel, online_q/q_out/bias
# mode: function
# summary: a DQN update evaluates Q(s, a) with the target network as well as the bootstrap target (one variable name changed when the target network was added), then differentiates with respect to the online network; the online network is on no path to the loss, every gradient is None and apply_gradients raises "No gradients provided for any variable"
# lint: no (both networks are valid callables; which one belongs on which side is the algorithm)
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
        q_taken = tf.gather(target(s), a, batch_dims=1)  # expect: not-connected|sources-mismatch primary
        loss = tf.reduce_mean(tf.square(y - q_taken))
    grads = tape.gradient(loss, online.trainable_variables)
    optimizer.apply_gradients(zip(grads, online.trainable_variables))
    return loss


dqn_step(states, actions, rewards, next_states)
