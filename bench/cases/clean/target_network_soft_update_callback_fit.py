# summary: a DQN-style keras.Model holding an online and a target network: train_step bootstraps from the target (tracked and trainable, never a source), a callback soft-updates the target's weights by assign after every batch, fit
# source: https://keras.io/examples/rl/ddpg_pendulum/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(43)
rng = np.random.default_rng(43)
n, n_actions = 64, 3
s = rng.normal(size=(n, 5)).astype("float32")
a = rng.integers(0, n_actions, size=(n,)).astype("int32")
r = rng.normal(size=(n,)).astype("float32")
s2 = rng.normal(size=(n, 5)).astype("float32")


def q_net(name):
    return keras.Sequential([keras.Input((5,)), layers.Dense(16, activation="relu", name=f"{name}_h"),
                             layers.Dense(n_actions, name=f"{name}_q")], name=name)


class QLearner(keras.Model):
    def __init__(self):
        super().__init__()
        self.online = q_net("online")
        self.target = q_net("target")
        self.target.set_weights(self.online.get_weights())

    def call(self, states):
        return self.online(states)

    def train_step(self, data):
        states, actions, rewards, next_states = data
        bootstrap = rewards + 0.9 * tf.reduce_max(self.target(next_states), axis=1)
        with tf.GradientTape() as tape:
            q = tf.gather(self.online(states), actions, batch_dims=1)
            loss = tf.reduce_mean(tf.square(bootstrap - q))
        grads = tape.gradient(loss, self.online.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.online.trainable_variables))
        return {"loss": loss}


class SoftUpdate(keras.callbacks.Callback):
    def __init__(self, tau=0.1):
        super().__init__()
        self.tau = tau

    def on_train_batch_end(self, batch, logs=None):
        for t, o in zip(self.model.target.weights, self.model.online.weights):
            t.assign(self.tau * o + (1 - self.tau) * t)


model = QLearner()
model.compile(optimizer=keras.optimizers.Adam(1e-2))
ds = tf.data.Dataset.from_tensor_slices((s, a, r, s2)).batch(16)
before_online = [w.numpy().copy() for w in model.online.trainable_variables]
before_target = [w.numpy().copy() for w in model.target.trainable_variables]
model.fit(ds, epochs=1, verbose=0, callbacks=[SoftUpdate()])
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before_online, model.online.trainable_variables))
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before_target, model.target.trainable_variables))
