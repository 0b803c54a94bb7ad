# source: https://github.com/godka/Pensieve-PPO/issues/34
# cause: not-connected
# weights: agent/critic/kernel, agent/critic/bias
# mode: fit
# summary: a PPO agent's train_step (run by fit) computes the critic's MSE but writes the total loss from the clipped surrogate and the entropy bonus only; the advantage is stop_gradient'ed on purpose, so the critic head's gradients are None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(34)
rng = np.random.default_rng(34)
obs = rng.normal(size=(64, 6)).astype("float32")
acts = rng.integers(0, 3, size=(64,)).astype("int32")
rets = rng.normal(size=(64,)).astype("float32")
old_logp = np.log(np.full((64,), 1 / 3, dtype="float32"))


class Agent(tf.keras.Model):
    def __init__(self):
        super().__init__(name="agent")
        self.body = tf.keras.layers.Dense(16, activation="tanh", name="body")
        self.actor = tf.keras.layers.Dense(3, name="actor")
        self.critic = tf.keras.layers.Dense(1, name="critic")

    def call(self, x):
        h = self.body(x)
        return self.actor(h), tf.squeeze(self.critic(h), -1)

    def train_step(self, data):
        x, (a, ret, old) = data
        with tf.GradientTape() as tape:
            logits, value = self(x, training=True)
            logp = tf.gather(tf.nn.log_softmax(logits), a, batch_dims=1)
            adv = tf.stop_gradient(ret - value)
            ratio = tf.exp(logp - old)
            surrogate = tf.minimum(ratio * adv, tf.clip_by_value(ratio, 0.8, 1.2) * adv)
            critic_loss = tf.reduce_mean(tf.square(ret - value))
            entropy = -tf.reduce_mean(tf.reduce_sum(tf.nn.softmax(logits) * tf.nn.log_softmax(logits), -1))
            loss = -tf.reduce_mean(surrogate) - 0.01 * entropy  # expect: not-connected primary
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(
            (g, v) for g, v in zip(grads, self.trainable_variables) if g is not None)
        return {"loss": loss, "critic_loss": critic_loss}


agent = Agent()
agent.compile(optimizer=tf.keras.optimizers.Adam(1e-2))
agent(obs[:1])
before = [w.numpy().copy() for w in agent.critic.weights]
agent.fit(obs, (acts, rets, old_logp), batch_size=32, epochs=1, verbose=0)
print("critic changed:", [bool(np.any(b != w.numpy())) for b, w in zip(before, agent.critic.weights)])
