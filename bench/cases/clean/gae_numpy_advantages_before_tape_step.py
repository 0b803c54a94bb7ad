# source: https://keras.io/examples/rl/actor_critic_cartpole/
# summary: an actor-critic update whose advantages are computed with NumPy (generalised advantage estimation over .numpy() values of an earlier critic pass, outside any tape) and fed into the tape as constants; the tape recomputes the policy and values from the states
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
inp = keras.Input((4,))
h = keras.layers.Dense(16, activation="relu", name="common")(inp)
model = keras.Model(inp, [keras.layers.Dense(2, name="actor")(h), keras.layers.Dense(1, name="critic")(h)])
opt = keras.optimizers.Adam(1e-2)
rng = np.random.default_rng(48)
states = rng.normal(size=(10, 4)).astype("float32")
actions = rng.integers(0, 2, 10)
rewards = rng.random(10).astype("float32")

_, values = model(states)
values = values.numpy()[:, 0]
advantages, last = np.zeros(10, "float32"), 0.0
for t in reversed(range(10)):
    next_value = values[t + 1] if t + 1 < 10 else 0.0
    delta = rewards[t] + 0.99 * next_value - values[t]
    last = delta + 0.99 * 0.95 * last
    advantages[t] = last
returns = advantages + values

with tf.GradientTape() as tape:
    logits, v = model(states)
    logp = tf.reduce_sum(tf.nn.log_softmax(logits) * tf.one_hot(actions, 2), axis=1)
    actor_loss = -tf.reduce_mean(logp * advantages)
    critic_loss = tf.reduce_mean(tf.square(returns - v[:, 0]))
    loss = actor_loss + 0.5 * critic_loss
grads = tape.gradient(loss, model.trainable_variables)
opt.apply_gradients(zip(grads, model.trainable_variables))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
