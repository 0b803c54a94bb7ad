# summary: a GAN step with one tape per network; each network updated by its own loss
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(100)
real = rng.normal(size=(16, 4)).astype("float32")
generator = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                                 tf.keras.layers.Dense(8, activation="relu", name="g1"),
                                 tf.keras.layers.Dense(4, name="g2")], name="generator")
discriminator = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                                     tf.keras.layers.Dense(8, activation="relu", name="d1"),
                                     tf.keras.layers.Dense(1, name="d2")], name="discriminator")
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
g_opt, d_opt = tf.keras.optimizers.Adam(1e-3), tf.keras.optimizers.Adam(1e-3)

noise = tf.random.normal((16, 3), seed=1)
with tf.GradientTape() as g_tape, tf.GradientTape() as d_tape:
    fake = generator(noise, training=True)
    real_out = discriminator(real, training=True)
    fake_out = discriminator(fake, training=True)
    g_loss = bce(tf.ones_like(fake_out), fake_out)
    d_loss = bce(tf.ones_like(real_out), real_out) + bce(tf.zeros_like(fake_out), fake_out)
g_grads = g_tape.gradient(g_loss, generator.trainable_variables)
d_grads = d_tape.gradient(d_loss, discriminator.trainable_variables)
g_opt.apply_gradients(zip(g_grads, generator.trainable_variables, strict=False))
d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables, strict=False))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in g_grads + d_grads)
