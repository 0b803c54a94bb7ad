# summary: a GAN discriminator with keras.layers.SpectralNormalization (power iteration assigns u in call) and a hinge loss, custom train_step with two tapes; the critic's last bias gets an exact zero while every score is inside the hinge margins
# source: https://www.tensorflow.org/api_docs/python/tf/keras/layers/SpectralNormalization
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(35)
real = np.random.default_rng(35).normal(2.0, 0.5, size=(32, 4)).astype("float32")


class SNGAN(keras.Model):
    def __init__(self):
        super().__init__()
        self.latent = 3
        self.generator = keras.Sequential([keras.Input((3,)), layers.Dense(16, activation="relu"), layers.Dense(4)],
                                          name="generator")
        self.discriminator = keras.Sequential([
            keras.Input((4,)), layers.SpectralNormalization(layers.Dense(16)), layers.LeakyReLU(0.2),
            layers.SpectralNormalization(layers.Dense(1))], name="discriminator")

    def compile(self, d_opt, g_opt):
        super().compile()
        self.d_opt, self.g_opt = d_opt, g_opt

    def train_step(self, batch):
        n = tf.shape(batch)[0]
        z = tf.random.normal((n, self.latent))
        with tf.GradientTape() as tape:
            fake = self.generator(z)
            d_loss = tf.reduce_mean(tf.nn.relu(1.0 - self.discriminator(batch, training=True))) + \
                tf.reduce_mean(tf.nn.relu(1.0 + self.discriminator(fake, training=True)))
        grads = tape.gradient(d_loss, self.discriminator.trainable_weights)
        self.d_opt.apply_gradients(zip(grads, self.discriminator.trainable_weights))
        z = tf.random.normal((n, self.latent))
        with tf.GradientTape() as tape:
            g_loss = -tf.reduce_mean(self.discriminator(self.generator(z, training=True), training=True))
        grads = tape.gradient(g_loss, self.generator.trainable_weights)
        self.g_opt.apply_gradients(zip(grads, self.generator.trainable_weights))
        return {"d_loss": d_loss, "g_loss": g_loss}


gan = SNGAN()
gan.compile(keras.optimizers.Adam(1e-3, beta_1=0.0), keras.optimizers.Adam(1e-3, beta_1=0.0))
gan.generator.build((None, 3))
before = [w.numpy().copy() for w in gan.trainable_weights]
gan.fit(real, batch_size=8, epochs=1, verbose=0)
# the hinge loss's gradient for the last bias is mean(1[D(fake) > -1]) - mean(1[D(real) < 1]):
# exactly zero while every score is inside (-1, 1), as at the start; it legitimately stays put
changed = {w.path: not np.allclose(b, w.numpy()) for b, w in zip(before, gan.trainable_weights)}
assert [p for p, c in changed.items() if not c] == ["discriminator/spectral_normalization_1/dense_3/bias"], changed
