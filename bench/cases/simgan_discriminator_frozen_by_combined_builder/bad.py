# source: https://github.com/mjdietzx/SimGAN/issues/6
# cause: sources-mismatch
# weights: disc/d_conv/kernel, disc/d_conv/bias, disc/d_score/kernel, disc/d_score/bias
# mode: eager
# summary: a SimGAN-style custom loop keeps the Keras 2 recipe of freezing the discriminator while the combined refiner model is built; in Keras 3 the flag stays False, discriminator.trainable_variables is empty in the discriminator step, and the discriminator never trains
# lint: no (the freeze and the step's source list are in different functions; only the run shows the list is empty)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(6)
rng = np.random.default_rng(6)
synthetic = rng.normal(size=(16, 6, 6, 1)).astype("float32")
real = (rng.normal(size=(16, 6, 6, 1)) * 0.5 + 1.0).astype("float32")

refiner = tf.keras.Sequential([tf.keras.Input((6, 6, 1)),
                               tf.keras.layers.Conv2D(1, 3, padding="same", name="r_conv")],
                              name="refiner")
disc = tf.keras.Sequential([tf.keras.Input((6, 6, 1)),
                            tf.keras.layers.Conv2D(2, 3, name="d_conv"),
                            tf.keras.layers.Flatten(),
                            tf.keras.layers.Dense(1, name="d_score")], name="disc")


def build_combined():
    disc.trainable = False  # expect: sources-mismatch primary
    inputs = tf.keras.Input((6, 6, 1))
    refined = refiner(inputs)
    return tf.keras.Model(inputs, [refined, disc(refined)], name="combined")


combined = build_combined()
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
d_opt = tf.keras.optimizers.SGD(0.05)


def disc_step():
    fake = refiner(synthetic)
    with tf.GradientTape() as tape:
        real_score, fake_score = disc(real), disc(fake)
        loss = bce(tf.ones_like(real_score), real_score) + bce(tf.zeros_like(fake_score), fake_score)
    weights = disc.trainable_variables
    grads = tape.gradient(loss, weights)
    d_opt.apply_gradients(zip(grads, weights))
    return loss


print("disc loss", float(disc_step()), "trainable:", len(disc.trainable_variables))
