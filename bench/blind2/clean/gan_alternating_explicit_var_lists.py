# source: https://github.com/mafda/generative_adversarial_networks_101/issues/4
# summary: a GAN trained in a custom loop alternates a discriminator step and a generator step, each taking only its own network's variables as sources (the discriminator is held fixed in the generator step by the source list, not by a trainable flag); both networks change
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4)
real = (rng.normal(size=(64, 2)) * 0.5 + 1.0).astype("float32")
generator = tf.keras.Sequential([tf.keras.Input((3,)),
                                 tf.keras.layers.Dense(8, activation="relu", name="gen_h"),
                                 tf.keras.layers.Dense(2, name="gen_out")], name="gen")
discriminator = tf.keras.Sequential([tf.keras.Input((2,)),
                                     tf.keras.layers.Dense(8, activation="relu", name="disc_h"),
                                     tf.keras.layers.Dense(1, name="disc_out")], name="disc")
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
d_opt = tf.keras.optimizers.Adam(1e-2)
g_opt = tf.keras.optimizers.Adam(1e-2)


@tf.function
def gan_step(batch):
    noise = tf.random.normal((tf.shape(batch)[0], 3), seed=4)
    with tf.GradientTape() as tape:
        real_out = discriminator(batch, training=True)
        fake_out = discriminator(generator(noise, training=True), training=True)
        d_loss = bce(tf.ones_like(real_out), real_out) + bce(tf.zeros_like(fake_out), fake_out)
    d_opt.apply_gradients(zip(tape.gradient(d_loss, discriminator.trainable_variables),
                              discriminator.trainable_variables))
    with tf.GradientTape() as tape:
        fake_out = discriminator(generator(noise, training=True), training=True)
        g_loss = bce(tf.ones_like(fake_out), fake_out)
    g_opt.apply_gradients(zip(tape.gradient(g_loss, generator.trainable_variables),
                              generator.trainable_variables))
    return d_loss, g_loss


weights = discriminator.trainable_variables + generator.trainable_variables
before = [w.numpy().copy() for w in weights]
for _ in range(3):
    gan_step(real)
assert len(weights) == 8
assert all(np.any(b != w.numpy()) for b, w in zip(before, weights, strict=True))
