# summary: a WGAN with weight clipping as a Keras kernel constraint on the critic (clip to [-0.01, 0.01] after each update), the Wasserstein loss mean(y_true * y_pred) with -1/+1 labels, a train_step override with five critic steps per generator step, fit
# source: https://machinelearningmastery.com/how-to-code-a-wasserstein-generative-adversarial-network-wgan-from-scratch/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(29)
real = np.random.default_rng(29).normal(loc=2.0, size=(64, 6)).astype("float32")
latent = 3


class ClipConstraint(keras.constraints.Constraint):
    def __init__(self, clip_value):
        self.clip_value = clip_value

    def __call__(self, weights):
        return keras.ops.clip(weights, -self.clip_value, self.clip_value)

    def get_config(self):
        return {"clip_value": self.clip_value}


const = ClipConstraint(0.01)
critic = keras.Sequential([keras.Input((6,)), layers.Dense(16, kernel_constraint=const, name="c1"),
                           layers.LeakyReLU(0.2), layers.Dense(1, kernel_constraint=const, name="c2")], name="critic")
generator = keras.Sequential([keras.Input((latent,)), layers.Dense(16, activation="relu", name="g1"),
                              layers.Dense(6, name="g2")], name="generator")


def wasserstein_loss(y_true, y_pred):
    return tf.reduce_mean(y_true * y_pred)


class WGAN(keras.Model):
    def __init__(self, critic, generator, n_critic=5):
        super().__init__()
        self.critic, self.generator, self.n_critic = critic, generator, n_critic

    def compile(self, c_opt, g_opt):
        super().compile()
        self.c_opt, self.g_opt = c_opt, g_opt

    def train_step(self, real_batch):
        n = tf.shape(real_batch)[0]
        for _ in range(self.n_critic):
            fake = self.generator(tf.random.normal((n, latent)))
            with tf.GradientTape() as tape:
                c_loss = (wasserstein_loss(-tf.ones((n, 1)), self.critic(real_batch, training=True))
                          + wasserstein_loss(tf.ones((n, 1)), self.critic(fake, training=True)))
            grads = tape.gradient(c_loss, self.critic.trainable_variables)
            self.c_opt.apply_gradients(zip(grads, self.critic.trainable_variables))
        with tf.GradientTape() as tape:
            fake = self.generator(tf.random.normal((n, latent)), training=True)
            g_loss = wasserstein_loss(-tf.ones((n, 1)), self.critic(fake, training=True))
        grads = tape.gradient(g_loss, self.generator.trainable_variables)
        self.g_opt.apply_gradients(zip(grads, self.generator.trainable_variables))
        return {"c_loss": c_loss, "g_loss": g_loss}


wgan = WGAN(critic, generator)
wgan.compile(keras.optimizers.RMSprop(5e-4), keras.optimizers.RMSprop(5e-3))
before = [w.numpy().copy() for w in wgan.trainable_variables]
wgan.fit(real, epochs=1, batch_size=32, verbose=0)
# the critic's last bias cancels in mean(critic(fake)) - mean(critic(real)): zero by construction
moved = {w.path: not np.allclose(b, w.numpy()) for b, w in zip(before, wgan.trainable_variables)}
assert not moved.pop("critic/c2/bias") and all(moved.values()), moved
assert all(np.abs(w.numpy()).max() <= 0.01 + 1e-6 for w in critic.trainable_variables if "kernel" in w.path)
