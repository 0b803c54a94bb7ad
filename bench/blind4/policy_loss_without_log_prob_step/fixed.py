# summary: the policy-gradient loss weights the log-probability of each sampled action (log_softmax of the logits, picked by the one-hot) by the advantage, so the gradient reaches the policy through the logits and every weight gets one
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(75)
contexts = rng.normal(size=(64, 5)).astype("float32")
best_arm = rng.integers(0, 3, size=(64,))

policy = tf.keras.Sequential([tf.keras.Input((5,)),
                              tf.keras.layers.Dense(8, activation="relu", name="pi_hidden"),
                              tf.keras.layers.Dense(3, name="pi_logits")], name="policy")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(states, best):
    with tf.GradientTape() as tape:
        logits = policy(states, training=True)
        actions = tf.random.categorical(logits, 1, seed=75)[:, 0]
        reward = tf.cast(tf.equal(actions, best), tf.float32)
        advantage = reward - tf.reduce_mean(reward)
        taken = tf.one_hot(actions, 3)
        log_prob = tf.reduce_sum(taken * tf.nn.log_softmax(logits), axis=1)
        loss = -tf.reduce_mean(log_prob * advantage)
    grads = tape.gradient(loss, policy.trainable_variables)
    optimizer.apply_gradients(zip(grads, policy.trainable_variables))
    return grads


grads = train_step(contexts, best_arm)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
