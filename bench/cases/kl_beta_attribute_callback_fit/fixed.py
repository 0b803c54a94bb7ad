# summary: the same VAE with its KL weight a non-trainable tf.Variable that the callback assigns: the traced step reads its current value
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(13826)
images = rng.random((64, 10)).astype("float32")


class Vae(keras.Model):
    def __init__(self):
        super().__init__(name="vae")
        self.hidden = keras.layers.Dense(8, activation="tanh", name="hidden")
        self.stats = keras.layers.Dense(6, name="stats")
        self.decoder = keras.layers.Dense(10, name="decoder")
        self.beta = tf.Variable(0.0, trainable=False, name="kl_beta")

    def call(self, x):
        mean, log_var = tf.split(self.stats(self.hidden(x)), 2, axis=-1)
        z = mean + tf.exp(0.5 * log_var) * tf.random.normal(tf.shape(mean), seed=3)
        return self.decoder(z), mean, log_var

    def train_step(self, data):
        with tf.GradientTape() as tape:
            recon, mean, log_var = self(data, training=True)
            rec = tf.reduce_mean(tf.square(recon - data))
            kl = -0.5 * tf.reduce_mean(1.0 + log_var - tf.square(mean) - tf.exp(log_var))
            loss = rec + self.beta * kl
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss, "kl": kl}


class Anneal(keras.callbacks.Callback):
    def on_epoch_begin(self, epoch, logs=None):
        self.model.beta.assign(min(1.0, epoch / 2))


model = Vae()
model.compile(optimizer=keras.optimizers.Adam(1e-2))
model(images[:1])
before = [w.numpy().copy() for w in model.trainable_weights]
history = model.fit(images, epochs=3, batch_size=16, verbose=0, callbacks=[Anneal()])
assert float(model.beta.numpy()) == 1.0
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
