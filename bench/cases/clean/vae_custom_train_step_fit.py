# summary: a VAE with a Sampling layer (reparameterisation with tf.random.normal), a custom train_step with reconstruction + KL losses tracked by Mean metrics, fit
# source: https://keras.io/examples/generative/vae/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(4)
x = np.random.default_rng(4).uniform(size=(64, 28, 28, 1)).astype("float32")


class Sampling(layers.Layer):
    def call(self, inputs):
        mean, log_var = inputs
        eps = tf.random.normal(tf.shape(mean))
        return mean + tf.exp(0.5 * log_var) * eps


ei = keras.Input((28, 28, 1))
h = layers.Flatten()(ei)
h = layers.Dense(32, activation="relu", name="enc_h")(h)
z_mean = layers.Dense(2, name="z_mean")(h)
z_log_var = layers.Dense(2, name="z_log_var")(h)
z = Sampling()([z_mean, z_log_var])
encoder = keras.Model(ei, [z_mean, z_log_var, z], name="encoder")
di = keras.Input((2,))
d = layers.Dense(32, activation="relu", name="dec_h")(di)
d = layers.Dense(784, activation="sigmoid", name="dec_out")(d)
decoder = keras.Model(di, layers.Reshape((28, 28, 1))(d), name="decoder")


class VAE(keras.Model):
    def __init__(self, encoder, decoder, **kw):
        super().__init__(**kw)
        self.encoder, self.decoder = encoder, decoder
        self.total = keras.metrics.Mean(name="loss")
        self.kl_tracker = keras.metrics.Mean(name="kl")

    @property
    def metrics(self):
        return [self.total, self.kl_tracker]

    def train_step(self, data):
        with tf.GradientTape() as tape:
            zm, zlv, zz = self.encoder(data)
            rec = self.decoder(zz)
            rec_loss = tf.reduce_mean(tf.reduce_sum(
                keras.losses.binary_crossentropy(data, rec), axis=(1, 2)))
            kl = -0.5 * (1 + zlv - tf.square(zm) - tf.exp(zlv))
            kl = tf.reduce_mean(tf.reduce_sum(kl, axis=1))
            loss = rec_loss + kl
        grads = tape.gradient(loss, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
        self.total.update_state(loss)
        self.kl_tracker.update_state(kl)
        return {m.name: m.result() for m in self.metrics}


vae = VAE(encoder, decoder)
vae.compile(optimizer=keras.optimizers.Adam())
before = [w.numpy().copy() for w in vae.trainable_weights]
vae.fit(x, epochs=1, batch_size=32, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, vae.trainable_weights))
