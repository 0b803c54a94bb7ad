# source: https://github.com/tensorflow/tensorflow/issues/54341
# cause: outside-tape
# rule: TM103
# weights: vae/enc/kernel, vae/enc/bias, vae/dec/kernel, vae/dec/bias
# mode: eager
# summary: the VAE loss helper is called after the with block, on values the tape saw
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(42)
X = rng.random((16, 6)).astype("float32")


class VAE(tf.keras.Model):
    def __init__(self):
        super().__init__(name="vae")
        self.enc = tf.keras.layers.Dense(4, name="enc")
        self.dec = tf.keras.layers.Dense(6, activation="sigmoid", name="dec")

    def call(self, x):
        mu, log_var = tf.split(self.enc(x), 2, axis=-1)
        z = mu + tf.exp(0.5 * log_var) * tf.random.normal(tf.shape(mu), seed=7)
        return self.dec(z), mu, log_var


def compute_total_loss(data, reconstruction, mu, log_var, alpha=1.0):
    rec = tf.reduce_mean(tf.reduce_sum(tf.square(data - reconstruction), axis=-1))
    kl = -0.5 * tf.reduce_mean(tf.reduce_sum(1 + log_var - mu ** 2 - tf.exp(log_var), axis=-1))
    return rec + alpha * kl


model = VAE()
with tf.GradientTape() as tape:
    X_recon, mu, log_var = model(X)
total_loss = compute_total_loss(X, X_recon, mu, log_var)  # expect: outside-tape primary
grads = tape.gradient(total_loss, model.trainable_weights)
print(grads)
