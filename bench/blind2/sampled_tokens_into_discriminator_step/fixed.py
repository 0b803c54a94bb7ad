# summary: the generator emits a Gumbel-softmax relaxation of the token (a soft one-hot), so the discriminator's verdict is differentiable in the generator's weights
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(31)
noise = rng.normal(size=(32, 4)).astype("float32")
generator = tf.keras.Sequential([tf.keras.Input((4,)),
                                 tf.keras.layers.Dense(16, activation="relu", name="g_hidden"),
                                 tf.keras.layers.Dense(6, name="g_logits")], name="token_gen")
discriminator = tf.keras.Sequential([tf.keras.Input((6,)),
                                     tf.keras.layers.Dense(8, activation="relu", name="d_hidden"),
                                     tf.keras.layers.Dense(1, name="d_out")], name="token_disc")
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)


@tf.function
def generator_step(z):
    with tf.GradientTape() as tape:
        logits = generator(z, training=True)
        uniform = tf.random.uniform(tf.shape(logits), 1e-6, 1.0, seed=31)
        fake = tf.nn.softmax((logits - tf.math.log(-tf.math.log(uniform))) / 0.5)
        verdict = discriminator(fake, training=True)
        loss = bce(tf.ones_like(verdict), verdict)
    return tape.gradient(loss, generator.trainable_variables)


grads = generator_step(noise)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
