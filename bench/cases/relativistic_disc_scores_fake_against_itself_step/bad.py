# source: https://github.com/SerezD/vqvae-vqgan-pytorch-lightning/issues/3
# cause: zero-at-runtime
# rule: TM501
# weights: rel_disc/disc_hidden/kernel, rel_disc/disc_hidden/bias, rel_disc/disc_logit/kernel
# mode: function
# summary: a relativistic discriminator's loss compares the discriminator's scores of the fake batch with its scores of the same fake batch (a typo for the real batch): the two calls give the same value, their difference is zero whatever the weights, the softplus of it is a constant and every discriminator gradient is exactly zero
# lint: no (two separate calls of the model on the same tensor; only the structure of the run shows they are equal)
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
        relative = disc(fake, training=True) - disc(fake, training=True)  # expect: zero-at-runtime primary
        loss = tf.reduce_mean(tf.nn.softplus(-relative))
    grads = tape.gradient(loss, disc.trainable_variables)
    optimizer.apply_gradients(zip(grads, disc.trainable_variables))
    return loss, grads


loss, grads = disc_step(real_images, fake_images)
print("loss:", float(loss), "all-zero:", [float(tf.reduce_max(tf.abs(g))) == 0.0 for g in grads])
