# summary: Q(s, a) is evaluated by the policy network (the target network only makes the bootstrap), so the policy network gets gradients and trains; the target copy follows it by the soft update
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
eval_net = policy_net
optimizer = tf.keras.optimizers.Adam(1e-3)

for _ in range(2):
    bootstrap = rewards + 0.9 * tf.reduce_max(target_net(next_states), axis=1)
    with tf.GradientTape() as tape:
        q_taken = tf.gather(eval_net(states), actions, batch_dims=1)
        loss = tf.reduce_mean(tf.square(bootstrap - q_taken))
    grads = tape.gradient(loss, policy_net.trainable_variables)
    print("loss:", float(loss))
    assert len(grads) == 4
    assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
    optimizer.apply_gradients(zip(grads, policy_net.trainable_variables))
    for t, p in zip(target_net.variables, policy_net.variables):
        t.assign(0.99 * t + 0.01 * p)
