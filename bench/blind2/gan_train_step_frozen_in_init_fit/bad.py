# source: https://github.com/KerasKorea/KEKOxTutorial/issues/139
# cause: sources-mismatch
# weights: discriminator/d_hidden/kernel, discriminator/d_hidden/bias, discriminator/d_out/kernel, discriminator/d_out/bias
# mode: fit
# summary: a GAN written as a Keras 3 Model with its own train_step keeps the Keras 2 recipe of freezing the discriminator in __init__; the discriminator step takes discriminator.trainable_variables, which is then empty, so the discriminator gets no update (Keras' optimizer raises on the empty list)
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(139)
real = (rng.normal(size=(128, 2)) * 0.3 + np.array([2.0, -1.0])).astype("float32")
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)


def make_generator():
    return tf.keras.Sequential([tf.keras.Input((4,)),
                                tf.keras.layers.Dense(8, activation="relu", name="g_hidden"),
                                tf.keras.layers.Dense(2, name="g_out")], name="generator")


def make_discriminator():
    return tf.keras.Sequential([tf.keras.Input((2,)),
                                tf.keras.layers.Dense(8, activation="relu", name="d_hidden"),
                                tf.keras.layers.Dense(1, name="d_out")], name="discriminator")


class GAN(tf.keras.Model):
    def __init__(self):
        super().__init__(name="gan")
        self.generator = make_generator()
        self.discriminator = make_discriminator()
        self.discriminator.trainable = False  # expect: sources-mismatch primary

    def compile(self, d_optimizer, g_optimizer):
        super().compile()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer

    def train_step(self, batch):
        noise = tf.random.normal((tf.shape(batch)[0], 4))
        with tf.GradientTape() as tape:
            real_logits = self.discriminator(batch, training=True)
            fake_logits = self.discriminator(self.generator(noise, training=True), training=True)
            d_loss = (bce(tf.ones_like(real_logits), real_logits)
                      + bce(tf.zeros_like(fake_logits), fake_logits))
        d_vars = self.discriminator.trainable_variables
        self.d_optimizer.apply_gradients(zip(tape.gradient(d_loss, d_vars), d_vars))
        with tf.GradientTape() as tape:
            fake_logits = self.discriminator(self.generator(noise, training=True), training=True)
            g_loss = bce(tf.ones_like(fake_logits), fake_logits)
        g_vars = self.generator.trainable_variables
        self.g_optimizer.apply_gradients(zip(tape.gradient(g_loss, g_vars), g_vars))
        return {"d_loss": d_loss, "g_loss": g_loss}


gan = GAN()
gan.compile(tf.keras.optimizers.Adam(1e-2), tf.keras.optimizers.Adam(1e-2))
before = [w.numpy().copy() for w in gan.discriminator.weights]
gan.fit(real, epochs=2, batch_size=32, verbose=0)
print("discriminator changed:",
      [bool(np.any(b != w.numpy())) for b, w in zip(before, gan.discriminator.weights)])
