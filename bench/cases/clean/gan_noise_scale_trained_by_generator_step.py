# source: https://github.com/tensorflow/tensorflow/issues/38061
# summary: a generator's Lambda scales its input noise by a learned global tf.Variable; the generator step trains it with the generator's weights, the discriminator step reads it through the fakes and leaves it out of its sources on purpose (GAN alternation)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(38)

rng = np.random.default_rng(38061)
real = rng.normal(loc=2.0, scale=0.5, size=(64, 2)).astype("float32")

noise_scale = tf.Variable(1.0, name="noise_scale")
z_in = tf.keras.Input((3,))
scaled = tf.keras.layers.Lambda(lambda t: t * noise_scale, name="scale_noise")(z_in)
generator = tf.keras.Model(z_in, tf.keras.layers.Dense(2, name="g_out")(
    tf.keras.layers.Dense(8, activation="tanh", name="g_hidden")(scaled)), name="generator")
discriminator = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(8, activation="tanh", name="d_hidden"),
                                     tf.keras.layers.Dense(1, name="d_out")], name="discriminator")
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
g_opt, d_opt = tf.keras.optimizers.Adam(1e-2), tf.keras.optimizers.Adam(1e-2)
g_vars = generator.trainable_variables + [noise_scale]


@tf.function
def train_step(batch, z):
    with tf.GradientTape() as d_tape:
        fake = generator(z)
        d_loss = bce(tf.ones((64, 1)), discriminator(batch)) + bce(tf.zeros((64, 1)), discriminator(fake))
    d_grads = d_tape.gradient(d_loss, discriminator.trainable_variables)
    d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables))
    with tf.GradientTape() as g_tape:
        g_loss = bce(tf.ones((64, 1)), discriminator(generator(z)))
    g_grads = g_tape.gradient(g_loss, g_vars)
    g_opt.apply_gradients(zip(g_grads, g_vars))
    return d_grads, g_grads


for _ in range(3):
    d_grads, g_grads = train_step(real, tf.random.normal((64, 3)))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in [*d_grads, *g_grads])
