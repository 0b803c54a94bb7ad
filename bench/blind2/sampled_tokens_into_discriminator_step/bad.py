# source: https://github.com/LantaoYu/SeqGAN/issues/31
# cause: non-differentiable-op|integer-dtype
# weights: token_gen/g_hidden/kernel, token_gen/g_hidden/bias, token_gen/g_logits/kernel, token_gen/g_logits/bias
# mode: function
# summary: a text GAN's generator samples token ids with tf.random.categorical and feeds their one-hot codes to the discriminator; the integer sample has no gradient, so the generator's adversarial loss gives None for every generator weight
# lint: yes
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
        token = tf.random.categorical(logits, 1, seed=31)[:, 0]  # expect: non-differentiable-op|integer-dtype primary
        fake = tf.one_hot(token, 6)  # accept: non-differentiable-op|integer-dtype
        verdict = discriminator(fake, training=True)
        loss = bce(tf.ones_like(verdict), verdict)
    return tape.gradient(loss, generator.trainable_variables)


print("generator grads None:", [g is None for g in generator_step(noise)])
