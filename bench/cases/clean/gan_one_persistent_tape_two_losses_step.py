# source: https://github.com/peteryuX/esrgan-tf2/issues/5
# summary: a GAN step records both losses on one persistent tape (the discriminator's fake term on stop_gradient'ed scores) and differentiates each loss for its own model: correct, both models train
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(5)
high_res = tf.constant(rng.normal(size=(16, 3)).astype("float32"))
low_res = tf.constant(rng.normal(size=(16, 3)).astype("float32"))

generator = tf.keras.Sequential([tf.keras.Input((3,)),
                                 tf.keras.layers.Dense(8, activation="relu", name="sr_hidden"),
                                 tf.keras.layers.Dense(3, name="sr_out")], name="sr_gen")
discriminator = tf.keras.Sequential([tf.keras.Input((3,)),
                                     tf.keras.layers.Dense(8, activation="relu", name="dis_hidden"),
                                     tf.keras.layers.Dense(1, name="dis_out")], name="sr_disc")
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
opt_g = tf.keras.optimizers.Adam(1e-3)
opt_d = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(low_res, high_res):
    with tf.GradientTape(persistent=True) as tape:
        super_res = generator(low_res, training=True)
        hr_scores = discriminator(high_res, training=True)
        sr_scores = discriminator(super_res, training=True)
        pixel = tf.reduce_mean(tf.square(super_res - high_res))
        loss_g = pixel + 0.1 * bce(tf.ones_like(sr_scores), sr_scores)
        loss_d = (bce(tf.ones_like(hr_scores), hr_scores)
                  + bce(tf.zeros_like(sr_scores), tf.stop_gradient(sr_scores)))
    grads_g = tape.gradient(loss_g, generator.trainable_variables)
    grads_d = tape.gradient(loss_d, discriminator.trainable_variables)
    opt_g.apply_gradients(zip(grads_g, generator.trainable_variables))
    opt_d.apply_gradients(zip(grads_d, discriminator.trainable_variables))
    return grads_g, grads_d


for _ in range(2):
    grads_g, grads_d = train_step(low_res, high_res)
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads_g + grads_d)
