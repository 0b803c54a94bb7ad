# source: https://github.com/openai/spinningup/issues/171
# summary: a REINFORCE step samples actions with tf.random.categorical (no gradient through the sample) and weights the log-probability of the sampled actions by the return; the policy is trained through the log-probability, so every weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(171)
states = rng.normal(size=(64, 4)).astype("float32")
policy = tf.keras.Sequential([tf.keras.Input((4,)),
                              tf.keras.layers.Dense(16, activation="tanh", name="pi_hidden"),
                              tf.keras.layers.Dense(3, name="pi_logits")], name="policy")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(s):
    with tf.GradientTape() as tape:
        logits = policy(s, training=True)
        actions = tf.random.categorical(logits, 1, seed=171)[:, 0]
        returns = tf.where(tf.equal(actions, 1), 1.0, -0.5) + 0.1 * s[:, 0]
        log_prob = tf.gather(tf.nn.log_softmax(logits), actions, batch_dims=1)
        loss = -tf.reduce_mean(log_prob * (returns - tf.reduce_mean(returns)))
    grads = tape.gradient(loss, policy.trainable_variables)
    optimizer.apply_gradients(zip(grads, policy.trainable_variables))
    return grads


grads = train_step(states)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
