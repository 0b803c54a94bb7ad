# summary: the generator loss scores the generated batch
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(45)
real = rng.normal(size=(16, 4)).astype("float32")
generator = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                                 tf.keras.layers.Dense(8, activation="relu", name="g1"),
                                 tf.keras.layers.Dense(4, name="g2")], name="generator")
discriminator = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                                     tf.keras.layers.Dense(8, activation="relu", name="d1"),
                                     tf.keras.layers.Dense(1, name="d2")], name="discriminator")
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
g_opt = tf.keras.optimizers.Adam(1e-3)


@tf.function
def generator_step(images):
    noise = tf.random.normal((16, 3), seed=5)
    with tf.GradientTape() as tape:
        fake = generator(noise, training=True)
        scores = discriminator(fake, training=True)
        g_loss = bce(tf.ones_like(scores), scores)
    grads = tape.gradient(g_loss, generator.trainable_variables)
    g_opt.apply_gradients(zip(grads, generator.trainable_variables, strict=False))
    return grads


grads = generator_step(real)
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
