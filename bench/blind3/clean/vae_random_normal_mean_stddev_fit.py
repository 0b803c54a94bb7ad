# source: https://linux-blog.anracom.com/tag/kullback-leibler-loss/page/2/
# summary: a VAE's custom train_step samples the latent code with keras.random.normal(mean=z_mean, stddev=exp(0.5 * z_log_var)); the random op draws with a fixed seed but its mean and stddev enter by differentiable arithmetic, so the reparameterisation holds and every encoder and decoder weight changes under fit
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2)
data = rng.normal(size=(128, 6)).astype("float32")


class TinyVAE(keras.Model):
    def __init__(self):
        super().__init__(name="tiny_vae")
        self.hidden = keras.layers.Dense(8, activation="relu", name="enc_hidden")
        self.z_mean = keras.layers.Dense(2, name="z_mean")
        self.z_log_var = keras.layers.Dense(2, name="z_log_var")
        self.decoder = keras.layers.Dense(6, name="decoder")
        self.seed = keras.random.SeedGenerator(2)

    def build(self, input_shape):
        self.hidden.build(input_shape)
        self.z_mean.build((None, 8))
        self.z_log_var.build((None, 8))
        self.decoder.build((None, 2))

    def call(self, inputs):
        h = self.hidden(inputs)
        return self.z_mean(h), self.z_log_var(h)

    def train_step(self, batch):
        with tf.GradientTape() as tape:
            mean, log_var = self(batch, training=True)
            z = keras.random.normal(tf.shape(mean), mean=mean, stddev=tf.exp(0.5 * log_var),
                                    seed=self.seed)
            recon = tf.reduce_mean(tf.reduce_sum(tf.square(self.decoder(z) - batch), axis=1))
            kl = -0.5 * tf.reduce_mean(tf.reduce_sum(
                1 + log_var - tf.square(mean) - tf.exp(log_var), axis=1))
            loss = recon + kl
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


vae = TinyVAE()
vae.compile(optimizer=keras.optimizers.Adam(1e-2))
vae.build((None, 6))
weights = vae.trainable_weights
before = [w.numpy().copy() for w in weights]
vae.fit(data, epochs=2, batch_size=32, verbose=0)
assert len(weights) == 8
assert all(np.any(b != w.numpy()) for b, w in zip(before, weights, strict=True))
