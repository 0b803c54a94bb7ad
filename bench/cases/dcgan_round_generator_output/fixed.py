# summary: quantise with a straight-through estimator: round forward, identity backward
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
        scaled = generated * 127.5
        generated = (scaled + tf.stop_gradient(tf.round(scaled) - scaled)) / 127.5
        real_output = discriminator(images, training=True)
        fake_output = discriminator(generated, training=True)
        gen_loss = cross_entropy(tf.ones_like(fake_output), fake_output)
        disc_loss = (cross_entropy(tf.ones_like(real_output), real_output)
                     + cross_entropy(tf.zeros_like(fake_output), fake_output))
    gen_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
    disc_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    g_opt.apply_gradients(zip(gen_grads, generator.trainable_variables))
    d_opt.apply_gradients(zip(disc_grads, discriminator.trainable_variables))
    return gen_loss, disc_loss, gen_grads, disc_grads


before = [w.numpy().copy() for w in generator.trainable_variables]
for epoch in range(2):
    for batch in dataset:
        _, _, gen_grads, disc_grads = train_step(batch)
assert all(g is not None for g in list(gen_grads) + list(disc_grads))
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in gen_grads)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, generator.trainable_variables))
