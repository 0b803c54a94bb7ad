# summary: pix2pix's step: one with-statement opening a generator tape and a discriminator tape, the discriminator fed the input image concatenated with the target or the generated one, generator loss = GAN + 100 * L1, two optimizers
# source: https://www.tensorflow.org/tutorials/generative/pix2pix
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(28)
rng = np.random.default_rng(28)
inp = rng.uniform(-1, 1, size=(8, 8, 8, 1)).astype("float32")
tar = rng.uniform(-1, 1, size=(8, 8, 8, 1)).astype("float32")
generator = keras.Sequential([keras.Input((8, 8, 1)), layers.Conv2D(4, 3, padding="same", name="g_down"),
                              layers.LeakyReLU(), layers.Conv2D(1, 3, padding="same", activation="tanh",
                                                                name="g_up")], name="generator")
d_in, d_tar = keras.Input((8, 8, 1)), keras.Input((8, 8, 1))
d = layers.concatenate([d_in, d_tar])
d = layers.Conv2D(4, 3, strides=2, padding="same", name="d_conv")(d)
d = layers.LeakyReLU()(d)
discriminator = keras.Model([d_in, d_tar], layers.Conv2D(1, 3, padding="same", name="d_patch")(d))
loss_object = keras.losses.BinaryCrossentropy(from_logits=True)
generator_optimizer = keras.optimizers.Adam(2e-3, beta_1=0.5)
discriminator_optimizer = keras.optimizers.Adam(2e-3, beta_1=0.5)
LAMBDA = 100


def generator_loss(disc_generated_output, gen_output, target):
    gan_loss = loss_object(tf.ones_like(disc_generated_output), disc_generated_output)
    l1_loss = tf.reduce_mean(tf.abs(target - gen_output))
    return gan_loss + LAMBDA * l1_loss


def discriminator_loss(disc_real_output, disc_generated_output):
    real_loss = loss_object(tf.ones_like(disc_real_output), disc_real_output)
    generated_loss = loss_object(tf.zeros_like(disc_generated_output), disc_generated_output)
    return real_loss + generated_loss


@tf.function
def train_step(input_image, target):
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        gen_output = generator(input_image, training=True)
        disc_real_output = discriminator([input_image, target], training=True)
        disc_generated_output = discriminator([input_image, gen_output], training=True)
        gen_total_loss = generator_loss(disc_generated_output, gen_output, target)
        disc_loss = discriminator_loss(disc_real_output, disc_generated_output)
    generator_gradients = gen_tape.gradient(gen_total_loss, generator.trainable_variables)
    discriminator_gradients = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    generator_optimizer.apply_gradients(zip(generator_gradients, generator.trainable_variables))
    discriminator_optimizer.apply_gradients(zip(discriminator_gradients, discriminator.trainable_variables))


weights = generator.trainable_variables + discriminator.trainable_variables
before = [w.numpy().copy() for w in weights]
for _ in range(2):
    train_step(inp, tar)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, weights))
