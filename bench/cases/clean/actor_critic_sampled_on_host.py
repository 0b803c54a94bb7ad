# summary: one-network actor-critic: the action drawn on the host with np.random.choice from the softmax, the log-probability taken from the tensor, returns normalised in NumPy inside the tape
# source: https://keras.io/examples/rl/actor_critic_cartpole/
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

n_obs, n_actions, gamma = 4, 2, 0.99
inputs = tf.keras.Input(shape=(n_obs,))
hidden = tf.keras.layers.Dense(16, activation="relu", name="common")(inputs)
probs = tf.keras.layers.Dense(n_actions, activation="softmax", name="actor")(hidden)
value = tf.keras.layers.Dense(1, name="critic")(hidden)
model = tf.keras.Model(inputs, [probs, value], name="agent")
optimizer = tf.keras.optimizers.Adam(0.01)
huber = tf.keras.losses.Huber()
rng = np.random.default_rng(7)

for episode in range(2):
    log_probs, values, rewards = [], [], []
    with tf.GradientTape() as tape:
        for t in range(12):
            state = tf.constant(rng.normal(size=(1, n_obs)), tf.float32)
            p, v = model(state)
            values.append(v[0, 0])
            host_probs = np.squeeze(p.numpy()).astype("float64")
            action = rng.choice(n_actions, p=host_probs / host_probs.sum())
            log_probs.append(tf.math.log(p[0, action]))
            rewards.append(float(rng.random()))
        returns, running = [], 0.0
        for r in reversed(rewards):
            running = r + gamma * running
            returns.insert(0, running)
        returns = np.array(returns)
        returns = ((returns - returns.mean()) / (returns.std() + 1e-7)).tolist()
        actor = [-lp * (ret - v) for lp, v, ret in zip(log_probs, values, returns, strict=True)]
        critic = [huber(tf.reshape(v, (1,)), tf.constant([ret])) for v, ret in zip(values, returns, strict=True)]
        loss = tf.add_n(actor) + tf.add_n(critic)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))

assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
