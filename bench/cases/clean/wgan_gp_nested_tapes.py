# summary: WGAN-GP critic step: an inner tape for the gradient penalty inside the outer tape
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(102)
real = rng.normal(size=(16, 4)).astype("float32")
fake = rng.normal(size=(16, 4)).astype("float32")
critic = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                              tf.keras.layers.Dense(8, activation="tanh", name="c1"),
                              tf.keras.layers.Dense(1, name="c2")], name="critic")

with tf.GradientTape() as tape:
    eps = tf.random.uniform([16, 1], seed=2)
    xhat = eps * real + (1.0 - eps) * fake
    with tf.GradientTape() as gp_tape:
        gp_tape.watch(xhat)
        d_hat = critic(xhat)
    slopes = gp_tape.gradient(d_hat, xhat)
    penalty = tf.reduce_mean((tf.norm(slopes, axis=1) - 1.0) ** 2)
    loss = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real)) + 10.0 * penalty
grads = tape.gradient(loss, critic.trainable_variables)
# The output bias cancels in mean(fake) - mean(real): its gradient is exactly 0 by design.
assert all(g is not None for g in grads)
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads[:-1])
