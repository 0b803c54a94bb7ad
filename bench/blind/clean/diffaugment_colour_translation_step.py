# source: https://github.com/mit-han-lab/data-efficient-gans/issues/74
# summary: DiffAugment written with plain TensorFlow ops (random brightness, saturation around the mean, a roll translation) on both real and generated images in a GAN step; every augmentation is differentiable and each optimizer trains its own network
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(74)
real = tf.constant(rng.uniform(size=(8, 4, 4, 3)).astype("float32"))
noise = tf.constant(rng.normal(size=(8, 4)).astype("float32"))
generator = tf.keras.Sequential([tf.keras.Input((4,)),
                                 tf.keras.layers.Dense(48, activation="sigmoid", name="pixels"),
                                 tf.keras.layers.Reshape((4, 4, 3))], name="generator")
critic = tf.keras.Sequential([tf.keras.Input((4, 4, 3)), tf.keras.layers.Flatten(),
                              tf.keras.layers.Dense(1, name="score")], name="critic")
g_opt = tf.keras.optimizers.Adam(1e-3)
d_opt = tf.keras.optimizers.Adam(1e-3)


def diff_augment(images):
    images = images + (tf.random.uniform((tf.shape(images)[0], 1, 1, 1)) - 0.5)
    mean = tf.reduce_mean(images, axis=-1, keepdims=True)
    images = (images - mean) * tf.random.uniform((tf.shape(images)[0], 1, 1, 1), 0.5, 1.5) + mean
    return tf.roll(images, shift=1, axis=2)


@tf.function
def gan_step(z, batch):
    with tf.GradientTape() as g_tape, tf.GradientTape() as d_tape:
        fake = generator(z, training=True)
        fake_score = critic(diff_augment(fake), training=True)
        real_score = critic(diff_augment(batch), training=True)
        d_loss = tf.reduce_mean(tf.nn.softplus(fake_score) + tf.nn.softplus(-real_score))
        g_loss = tf.reduce_mean(tf.nn.softplus(-fake_score))
    g_grads = g_tape.gradient(g_loss, generator.trainable_variables)
    d_grads = d_tape.gradient(d_loss, critic.trainable_variables)
    g_opt.apply_gradients(zip(g_grads, generator.trainable_variables))
    d_opt.apply_gradients(zip(d_grads, critic.trainable_variables))
    return g_grads + d_grads


grads = gan_step(noise, real)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
