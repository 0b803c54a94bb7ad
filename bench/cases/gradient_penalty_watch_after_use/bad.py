# source: https://github.com/tensorflow/tensorflow/issues/22505
# cause: not-watched
# rule: TM102
# weights: -
# mode: eager
# summary: WGAN-GP: the inner tape watches the interpolates after the critic has read them
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(16)
real = rng.normal(size=(16, 4)).astype("float32")
fake = rng.normal(size=(16, 4)).astype("float32")
critic = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                              tf.keras.layers.Rescaling(2.0, offset=-1.0, name="scale"),
                              tf.keras.layers.Dense(8, activation="relu", name="c1"),
                              tf.keras.layers.Dense(1, name="c2")], name="critic")

with tf.GradientTape() as critic_tape:
    wasserstein = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real))
    with tf.GradientTape() as gp_tape:
        epsilon = tf.random.uniform([16, 1], 0.0, 1.0, seed=1)
        xhat = epsilon * real + (1 - epsilon) * fake
        dhat = critic(xhat)
        gp_tape.watch(xhat)  # expect: not-watched primary
    slopes = gp_tape.gradient(dhat, xhat)
    print("slopes:", slopes)
    penalty = tf.reduce_mean((tf.norm(slopes, axis=1) - 1.0) ** 2)
    loss = wasserstein + 10.0 * penalty
grads = critic_tape.gradient(loss, critic.trainable_variables)
