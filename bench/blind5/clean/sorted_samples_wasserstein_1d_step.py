# source: https://github.com/sprillo/softsort/issues/29
# summary: a generator is trained with the 1-D Wasserstein distance between sorted generated and sorted real samples; tf.sort returns values (its gradient routes back through the sorting permutation), unlike tf.argsort, so every generator weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(31265)
real = np.sort(rng.gamma(2.0, 1.0, size=(256,))).astype("float32")
noise = rng.normal(size=(256, 3)).astype("float32")

generator = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(16, activation="relu", name="w1_hidden"),
                                 tf.keras.layers.Dense(1, name="w1_out")], name="sampler")


@tf.function
def train_step(z, target):
    with tf.GradientTape() as tape:
        fake = tf.sort(generator(z, training=True)[:, 0])
        loss = tf.reduce_mean(tf.abs(fake - target))
    return tape.gradient(loss, generator.trainable_variables)


grads = train_step(noise, real)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
