# summary: a VAE trained with fit whose train_step multiplies its KL term by a Python float attribute set once to 0.0 and never changed (KL switched off on purpose): the frozen zero is what the code means
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(1)

rng = np.random.default_rng(7)
signals = rng.random((64, 10)).astype("float32")


class Autoencoder(keras.Model):
    def __init__(self, kl_weight):
        super().__init__(name="ae")
        self.hidden = keras.layers.Dense(8, activation="tanh", name="hidden")
        self.stats = keras.layers.Dense(6, name="stats")
        self.decoder = keras.layers.Dense(10, name="decoder")
        self.kl_weight = kl_weight

    def call(self, x):
        mean, log_var = tf.split(self.stats(self.hidden(x)), 2, axis=-1)
        z = mean + tf.exp(0.5 * log_var) * tf.random.normal(tf.shape(mean), seed=5)
        return self.decoder(z), mean, log_var

    def train_step(self, data):
        with tf.GradientTape() as tape:
            recon, mean, log_var = self(data, training=True)
            rec = tf.reduce_mean(tf.square(recon - data))
            kl = -0.5 * tf.reduce_mean(1.0 + log_var - tf.square(mean) - tf.exp(log_var))
            loss = rec + self.kl_weight * kl
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


model = Autoencoder(kl_weight=0.0)
model.compile(optimizer=keras.optimizers.Adam(1e-2))
model(signals[:1])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(signals, epochs=2, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
