# source: https://github.com/SciSharp/TensorFlow.NET/issues/760
# cause: host-round-trip
# rule: TM301
# weights: critic/kernel, critic/bias
# mode: eager
# summary: actor-critic: each step's critic value is stored as a Python float, so the critic loss reaches the tape as constants
# lint: yes
import numpy as np
import tensorflow as tf
from tensorflow import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(5)
num_inputs, num_actions, gamma = 4, 2, 0.99


class ToyEnv:
    def reset(self):
        self.t = 0
        return rng.normal(size=num_inputs).astype("float32")

    def step(self, action):
        self.t += 1
        return rng.normal(size=num_inputs).astype("float32"), 1.0, self.t >= 10


inputs = keras.layers.Input(shape=(num_inputs,))
common = keras.layers.Dense(16, activation="relu", name="common")(inputs)
action = keras.layers.Dense(num_actions, activation="softmax", name="actor")(common)
critic = keras.layers.Dense(1, name="critic")(common)
model = keras.Model(inputs=inputs, outputs=[action, critic])
optimizer = keras.optimizers.Adam(learning_rate=0.01)
huber_loss = keras.losses.Huber()
env = ToyEnv()

for episode in range(2):
    state = env.reset()
    action_probs_history, critic_value_history, rewards_history = [], [], []
    with tf.GradientTape() as tape:
        for t in range(10):
            state = tf.expand_dims(tf.convert_to_tensor(state), 0)
            action_probs, critic_value = model(state)
            critic_value_history.append(float(critic_value[0, 0]))  # expect: host-round-trip primary
            chosen = rng.choice(num_actions, p=np.squeeze(action_probs))
            action_probs_history.append(tf.math.log(action_probs[0, chosen]))
            state, reward, done = env.step(chosen)
            rewards_history.append(reward)
            if done:
                break
        returns, discounted = [], 0.0
        for r in rewards_history[::-1]:
            discounted = r + gamma * discounted
            returns.insert(0, discounted)
        returns = np.array(returns)
        returns = ((returns - np.mean(returns)) / (np.std(returns) + 1e-7)).tolist()
        actor_losses, critic_losses = [], []
        for log_prob, value, ret in zip(action_probs_history, critic_value_history, returns):
            diff = ret - value
            actor_losses.append(-log_prob * diff)
            critic_losses.append(huber_loss(tf.expand_dims(value, 0), tf.expand_dims(ret, 0)))
        loss_value = sum(actor_losses) + sum(critic_losses)
    grads = tape.gradient(loss_value, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
