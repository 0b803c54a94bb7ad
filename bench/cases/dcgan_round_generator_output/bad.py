# source: https://github.com/tensorflow/tensorflow/issues/5888
# cause: non-differentiable-op
# rule: TM201
# weights: generator/g_dense/kernel, generator/g_bn/gamma, generator/g_bn/beta, generator/g_out/kernel, generator/g_out/bias
# mode: function
# summary: DCGAN: the generated images are quantised to 8-bit levels with tf.round before the discriminator sees them
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(51)
real_images = rng.random((32, 8, 8, 1)).astype("float32") * 2 - 1
dataset = tf.data.Dataset.from_tensor_slices(real_images).batch(16)


def make_generator():
    return tf.keras.Sequential([
        tf.keras.layers.Input((4,)),
        tf.keras.layers.Dense(4 * 4 * 8, use_bias=False, name="g_dense"),
        tf.keras.layers.BatchNormalization(name="g_bn"),
        tf.keras.layers.LeakyReLU(),
        tf.keras.layers.Reshape((4, 4, 8)),
        tf.keras.layers.Conv2DTranspose(1, 3, strides=2, padding="same", activation="tanh",
                                        name="g_out")], name="generator")


def make_discriminator():
    return tf.keras.Sequential([
        tf.keras.layers.Input((8, 8, 1)),
        tf.keras.layers.Conv2D(4, 3, strides=2, padding="same", name="d_conv"),
        tf.keras.layers.LeakyReLU(),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(1, name="d_out")], name="discriminator")


generator, discriminator = make_generator(), make_discriminator()
cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)
g_opt = tf.keras.optimizers.Adam(1e-3)
d_opt = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(images):
    noise = tf.random.normal([16, 4])
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        generated = generator(noise, training=True)
        generated = tf.round(generated * 127.5) / 127.5  # expect: non-differentiable-op primary
        real_output = discriminator(images, training=True)
        fake_output = discriminator(generated, training=True)
        gen_loss = cross_entropy(tf.ones_like(fake_output), fake_output)
        disc_loss = (cross_entropy(tf.ones_like(real_output), real_output)
                     + cross_entropy(tf.zeros_like(fake_output), fake_output))
    gen_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
    disc_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    g_opt.apply_gradients(zip(gen_grads, generator.trainable_variables))
    d_opt.apply_gradients(zip(disc_grads, discriminator.trainable_variables))
    return gen_loss, disc_loss


for epoch in range(2):
    for batch in dataset:
        train_step(batch)
