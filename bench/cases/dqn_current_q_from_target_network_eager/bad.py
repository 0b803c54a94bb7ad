# source: https://github.com/deeplearning4j/deeplearning4j/issues/8107
# cause: not-connected|sources-mismatch
# weights: policy_net/pq_hidden/kernel, policy_net/pq_hidden/bias, policy_net/pq_out/kernel, policy_net/pq_out/bias
# mode: eager
# summary: a Q-learning update takes the current Q(s, a) from the target network as well as the bootstrap max Q(s', a') (a proposed "fix" that swapped the network for the current values); the policy network whose weights are differentiated is on no path to the loss, every gradient is None and apply_gradients raises
# lint: no (both networks are valid callables; which one belongs on which side is the algorithm)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(8107)
obs = rng.normal(size=(24, 6)).astype("float32")
next_obs = rng.normal(size=(24, 6)).astype("float32")
actions = rng.integers(0, 3, size=24)
rewards = rng.normal(size=24).astype("float32")
done = (rng.random(24) < 0.1).astype("float32")


def q_network(name):
    return tf.keras.Sequential([tf.keras.Input((6,)),
                                tf.keras.layers.Dense(16, activation="relu", name="pq_hidden"),
                                tf.keras.layers.Dense(3, name="pq_out")], name=name)


nets = {"policy": q_network("policy_net"), "target": q_network("target_net")}
optimizer = tf.keras.optimizers.RMSprop(1e-3)

y_target = rewards + 0.9 * (1.0 - done) * tf.reduce_max(nets["target"](next_obs), axis=1)
with tf.GradientTape() as tape:
    chosen = tf.one_hot(actions, 3)
    q_current = tf.reduce_sum(nets["target"](obs) * chosen, axis=1)  # expect: not-connected|sources-mismatch primary
    loss = tf.reduce_mean(tf.keras.losses.huber(y_target[:, None], q_current[:, None]))
grads = tape.gradient(loss, nets["policy"].trainable_variables)
optimizer.apply_gradients(zip(grads, nets["policy"].trainable_variables))
