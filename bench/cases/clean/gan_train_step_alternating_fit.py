# summary: a GAN overriding train_step: the discriminator step on real+fake with noisy labels, then the generator step through a frozen-by-sources discriminator, fit
# source: https://keras.io/examples/generative/dcgan_overriding_train_step/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(5)
real = np.random.default_rng(5).normal(size=(64, 16)).astype("float32")
latent = 4
gen = keras.Sequential([keras.Input((latent,)), layers.Dense(16, activation="relu", name="g1"),
                        layers.Dense(16, name="g2")], name="generator")
disc = keras.Sequential([keras.Input((16,)), layers.Dense(16, name="d1"), layers.LeakyReLU(0.2),
                         layers.Dense(1, name="d2")], name="discriminator")


class GAN(keras.Model):
    def __init__(self, d, g):
        super().__init__()
        self.d, self.g = d, g
        self.d_loss_m = keras.metrics.Mean(name="d_loss")
        self.g_loss_m = keras.metrics.Mean(name="g_loss")

    def compile(self, d_opt, g_opt, loss_fn):
        super().compile()
        self.d_opt, self.g_opt, self.loss_fn = d_opt, g_opt, loss_fn

    @property
    def metrics(self):
        return [self.d_loss_m, self.g_loss_m]

    def train_step(self, real_images):
        n = tf.shape(real_images)[0]
        z = tf.random.normal((n, latent))
        fake = self.g(z)
        both = tf.concat([fake, real_images], axis=0)
        labels = tf.concat([tf.ones((n, 1)), tf.zeros((n, 1))], axis=0)
        labels += 0.05 * tf.random.uniform(tf.shape(labels))
        with tf.GradientTape() as tape:
            d_loss = self.loss_fn(labels, self.d(both))
        grads = tape.gradient(d_loss, self.d.trainable_weights)
        self.d_opt.apply_gradients(zip(grads, self.d.trainable_weights))
        z = tf.random.normal((n, latent))
        misleading = tf.zeros((n, 1))
        with tf.GradientTape() as tape:
            g_loss = self.loss_fn(misleading, self.d(self.g(z)))
        grads = tape.gradient(g_loss, self.g.trainable_weights)
        self.g_opt.apply_gradients(zip(grads, self.g.trainable_weights))
        self.d_loss_m.update_state(d_loss)
        self.g_loss_m.update_state(g_loss)
        return {"d_loss": self.d_loss_m.result(), "g_loss": self.g_loss_m.result()}


gan = GAN(disc, gen)
gan.compile(keras.optimizers.Adam(1e-3), keras.optimizers.Adam(1e-3),
            keras.losses.BinaryCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in gan.trainable_weights]
gan.fit(real, epochs=1, batch_size=32, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, gan.trainable_weights))
