# source: https://github.com/timsainb/tensorflow2-generative-models/issues/12
# cause: not-connected
# rule: TM104
# weights: generator/g_hidden/kernel, generator/g_hidden/bias, generator/g_out/kernel, generator/g_out/bias
# mode: eager
# summary: a two-tape GAN step computes both losses in one block (the discriminator's fake term on stop_gradient'ed scores) and then asks the generator's tape for the gradient of the discriminator's loss; the generator's own loss is left out, its gradients are None and apply_gradients raises
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(12)
real_points = tf.constant(rng.normal(loc=2.0, size=(32, 2)).astype("float32"))

generator = tf.keras.Sequential([tf.keras.Input((4,)),
                                 tf.keras.layers.Dense(16, activation="relu", name="g_hidden"),
                                 tf.keras.layers.Dense(2, name="g_out")], name="generator")
discriminator = tf.keras.Sequential([tf.keras.Input((2,)),
                                     tf.keras.layers.Dense(16, activation="relu", name="d_hidden"),
                                     tf.keras.layers.Dense(1, name="d_out")], name="discriminator")
cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)
gen_optimizer = tf.keras.optimizers.Adam(1e-3)
disc_optimizer = tf.keras.optimizers.Adam(1e-3)

noise = tf.random.normal((32, 4))
with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
    fake_points = generator(noise, training=True)
    real_scores = discriminator(real_points, training=True)
    fake_scores = discriminator(fake_points, training=True)
    gen_loss = cross_entropy(tf.ones_like(fake_scores), fake_scores)
    disc_loss = (cross_entropy(tf.ones_like(real_scores), real_scores)
                 + cross_entropy(tf.zeros_like(fake_scores), tf.stop_gradient(fake_scores)))
gen_grads = gen_tape.gradient(disc_loss, generator.trainable_variables)  # expect: not-connected primary
disc_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
disc_optimizer.apply_gradients(zip(disc_grads, discriminator.trainable_variables))
print("generator gradients are None:", [g is None for g in gen_grads])
gen_optimizer.apply_gradients(zip(gen_grads, generator.trainable_variables))
