# source: https://github.com/kengz/SLM-Lab/pull/44
# cause: not-connected|sources-mismatch
# weights: policy_q/pq_hidden/kernel, policy_q/pq_hidden/bias, policy_q/pq_out/kernel, policy_q/pq_out/bias
# mode: eager
# summary: an eager DQN update keeps its target network by a soft (Polyak) update with assign, and evaluates Q(s, a) with the network its evaluation name points at, which was set to the target network; the loss reads only the target copy, the policy network the gradient asks for is on no path to it, and every gradient is None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(44)
states = rng.normal(size=(32, 4)).astype("float32")
next_states = rng.normal(size=(32, 4)).astype("float32")
actions = rng.integers(0, 3, size=32)
rewards = rng.normal(size=32).astype("float32")


def build_q(name):
    return tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(16, activation="relu", name="pq_hidden"),
                                tf.keras.layers.Dense(3, name="pq_out")], name=name)


policy_net, target_net = build_q("policy_q"), build_q("target_q")
target_net.set_weights(policy_net.get_weights())
eval_net = target_net
optimizer = tf.keras.optimizers.Adam(1e-3)

for _ in range(2):
    bootstrap = rewards + 0.9 * tf.reduce_max(target_net(next_states), axis=1)
    with tf.GradientTape() as tape:
        q_taken = tf.gather(eval_net(states), actions, batch_dims=1)  # expect: not-connected|sources-mismatch primary
        loss = tf.reduce_mean(tf.square(bootstrap - q_taken))
    grads = tape.gradient(loss, policy_net.trainable_variables)
    print("loss:", float(loss), [g is None for g in grads])
    for t, p in zip(target_net.variables, policy_net.variables):
        t.assign(0.99 * t + 0.01 * p)
