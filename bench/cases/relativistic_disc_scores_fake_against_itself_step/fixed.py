# summary: the relativistic discriminator (no output bias: the difference would cancel it by design) compares its scores of the real batch with those of the fake batch, so the difference depends on the weights and every discriminator weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(3)
real_images = (rng.normal(size=(24, 6)) + 1.5).astype("float32")
fake_images = rng.normal(size=(24, 6)).astype("float32")

disc = tf.keras.Sequential([tf.keras.Input((6,)),
                            tf.keras.layers.Dense(10, activation="tanh", name="disc_hidden"),
                            tf.keras.layers.Dense(1, use_bias=False, name="disc_logit")],
                           name="rel_disc")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def disc_step(real, fake):
    with tf.GradientTape() as tape:
        relative = disc(real, training=True) - disc(fake, training=True)
        loss = tf.reduce_mean(tf.nn.softplus(-relative))
    grads = tape.gradient(loss, disc.trainable_variables)
    optimizer.apply_gradients(zip(grads, disc.trainable_variables))
    return loss, grads


loss, grads = disc_step(real_images, fake_images)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
