# source: https://github.com/keras-team/keras/issues/13826
# cause: zero-at-runtime
# rule: TM504
# weights: vae/stats/kernel, vae/stats/bias
# mode: fit
# summary: a VAE trained with fit reads a Python float KL weight (self.beta = 0.0) in its train_step and a callback ramps it each epoch; fit traced the step once with 0.0, so the KL term is multiplied by a frozen zero on every step while every weight still trains through the reconstruction
# lint: no (the callback ramps the factor through `self.model.beta`, which the static checker does not follow to the model)
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
        self.beta = 0.0

    def call(self, x):
        mean, log_var = tf.split(self.stats(self.hidden(x)), 2, axis=-1)
        z = mean + tf.exp(0.5 * log_var) * tf.random.normal(tf.shape(mean), seed=3)
        return self.decoder(z), mean, log_var

    def train_step(self, data):
        with tf.GradientTape() as tape:
            recon, mean, log_var = self(data, training=True)
            rec = tf.reduce_mean(tf.square(recon - data))
            kl = -0.5 * tf.reduce_mean(1.0 + log_var - tf.square(mean) - tf.exp(log_var))
            loss = rec + self.beta * kl  # expect: zero-at-runtime primary
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss, "kl": kl}


class Anneal(keras.callbacks.Callback):
    def on_epoch_begin(self, epoch, logs=None):
        self.model.beta = min(1.0, epoch / 2)


model = Vae()
model.compile(optimizer=keras.optimizers.Adam(1e-2))
history = model.fit(images, epochs=3, batch_size=16, verbose=0, callbacks=[Anneal()])
print("final beta", model.beta, "kl", history.history["kl"][-1])
