# summary: a small DCGAN train_step (conv, BatchNorm, LeakyReLU, two optimizers, tf.function)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(123)
images = rng.normal(size=(8, 8, 8, 1)).astype("float32")
generator = tf.keras.Sequential([
    tf.keras.layers.Input((16,)),
    tf.keras.layers.Dense(4 * 4 * 8, use_bias=False, name="g_dense"),
    tf.keras.layers.BatchNormalization(name="g_bn"),
    tf.keras.layers.LeakyReLU(),
    tf.keras.layers.Reshape((4, 4, 8)),
    tf.keras.layers.Conv2DTranspose(1, 3, strides=2, padding="same", activation="tanh",
                                    name="g_deconv"),
], name="generator")
discriminator = tf.keras.Sequential([
    tf.keras.layers.Input((8, 8, 1)),
    tf.keras.layers.Conv2D(4, 3, strides=2, padding="same", name="d_conv"),
    tf.keras.layers.LeakyReLU(),
    tf.keras.layers.Dropout(0.3),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(1, name="d_out"),
], name="discriminator")
cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)
g_opt, d_opt = tf.keras.optimizers.Adam(1e-4), tf.keras.optimizers.Adam(1e-4)


@tf.function
def train_step(batch):
    noise = tf.random.normal([8, 16])
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        generated = generator(noise, training=True)
        real_output = discriminator(batch, training=True)
        fake_output = discriminator(generated, training=True)
        gen_loss = cross_entropy(tf.ones_like(fake_output), fake_output)
        disc_loss = (cross_entropy(tf.ones_like(real_output), real_output)
                     + cross_entropy(tf.zeros_like(fake_output), fake_output))
    g_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
    d_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    g_opt.apply_gradients(zip(g_grads, generator.trainable_variables, strict=False))
    d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables, strict=False))
    return g_grads + d_grads


for _ in range(2):
    grads = train_step(images)
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
