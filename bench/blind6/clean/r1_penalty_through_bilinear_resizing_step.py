# source: https://www.tensorflow.org/api_docs/python/tf/image/resize
# summary: a GAN discriminator upsamples its input with Resizing(interpolation="bilinear") and is trained with the non-saturating loss plus an R1 gradient penalty on real images; the bilinear resize's backward op has its own gradient, so the penalty can be differentiated and every discriminator weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(19)
real = rng.normal(size=(8, 6, 6, 1)).astype("float32")
fake = rng.normal(size=(8, 6, 6, 1)).astype("float32")

disc = keras.Sequential([keras.Input((6, 6, 1)),
                         keras.layers.Resizing(12, 12, interpolation="bilinear", name="disc_resize"),
                         keras.layers.Conv2D(4, 3, activation="tanh", name="disc_conv"),
                         keras.layers.Flatten(),
                         keras.layers.Dense(1, name="disc_logit")], name="r1_disc")


@tf.function
def disc_step(real_images, fake_images):
    with tf.GradientTape() as tape:
        with tf.GradientTape() as inner:
            inner.watch(real_images)
            real_logit = disc(real_images, training=True)
        grad_real = inner.gradient(real_logit, real_images)
        r1 = tf.reduce_mean(tf.reduce_sum(tf.square(grad_real), axis=[1, 2, 3]))
        loss = (tf.reduce_mean(tf.nn.softplus(disc(fake_images, training=True)))
                + tf.reduce_mean(tf.nn.softplus(-real_logit)) + 5.0 * r1)
    return tape.gradient(loss, disc.trainable_variables)


grads = disc_step(tf.constant(real), tf.constant(fake))
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
