# summary: the combined model is built without freezing the discriminator; the generator-side step takes only the refiner's weights, so the discriminator step's list holds the discriminator's weights
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
    return grads


grads = disc_step()
assert len(grads) == 4 and all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
print("ok")
