# source: https://www.tensorflow.org/tutorials/reinforcement_learning/actor_critic
# summary: REINFORCE with a learned baseline: actions sampled by tf.random.categorical from the policy's logits, the advantage uses stop_gradient of the value head, log-probabilities gathered with the sampled integer actions through one_hot
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
inp = keras.Input((4,))
h = keras.layers.Dense(16, activation="relu", name="trunk")(inp)
logits = keras.layers.Dense(2, name="policy")(h)
value = keras.layers.Dense(1, name="value")(h)
model = keras.Model(inp, [logits, value])
opt = keras.optimizers.Adam(1e-2)
states = tf.constant(np.random.default_rng(1).normal(size=(20, 4)), tf.float32)
rewards = np.random.default_rng(2).random(20).astype("float32")
returns = np.cumsum(rewards[::-1])[::-1].copy()  # discounted returns computed on the host
returns = tf.constant((returns - returns.mean()) / (returns.std() + 1e-8))

with tf.GradientTape() as tape:
    logits_t, values = model(states)
    actions = tf.random.categorical(logits_t, 1)[:, 0]
    log_probs = tf.reduce_sum(tf.nn.log_softmax(logits_t) * tf.one_hot(actions, 2), axis=-1)
    values = tf.squeeze(values, -1)
    advantage = returns - tf.stop_gradient(values)
    actor_loss = -tf.reduce_sum(log_probs * advantage)
    critic_loss = keras.losses.Huber()(returns, values)
    loss = actor_loss + critic_loss
grads = tape.gradient(loss, model.trainable_variables)
opt.apply_gradients(zip(grads, model.trainable_variables))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
