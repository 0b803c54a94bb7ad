# source: https://github.com/pytorch/pytorch/issues/12136
# cause: not-connected
# rule: TM104
# weights: generator/g1/kernel, generator/g1/bias, generator/g2/kernel, generator/g2/bias
# mode: function
# summary: the generator loss scores the real batch, a forward pass the generator is not in
# lint: yes
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
        fake = generator(noise, training=True)  # accept
        scores = discriminator(images, training=True)  # expect: not-connected primary
        g_loss = bce(tf.ones_like(scores), scores)
    grads = tape.gradient(g_loss, generator.trainable_variables)
    return [g is None for g in grads], fake


print(generator_step(real)[0])
