# summary: a GAN whose discriminator wraps its Dense layers in keras.layers.SpectralNormalization (power iteration assigns its u vector and kernel during training calls), hinge losses (no bias on the last layer: the hinge terms cancel in its gradient at the start), two tapes in a @tf.function step
# source: https://keras.io/api/layers/normalization_layers/spectral_normalization/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(31)
real = np.random.default_rng(31).normal(size=(16, 8)).astype("float32")
gen = keras.Sequential([keras.Input((4,)), layers.Dense(16, activation="relu", name="g1"),
                        layers.Dense(8, name="g2")], name="gen")
disc = keras.Sequential([keras.Input((8,)),
                         layers.SpectralNormalization(layers.Dense(16), name="sn1"),
                         layers.LeakyReLU(0.2),
                         layers.SpectralNormalization(layers.Dense(1, use_bias=False), name="sn2")], name="disc")
d_opt, g_opt = keras.optimizers.Adam(2e-4, 0.5), keras.optimizers.Adam(2e-4, 0.5)


@tf.function
def step(xr):
    z = tf.random.normal((tf.shape(xr)[0], 4))
    with tf.GradientTape() as dt:
        d_loss = (tf.reduce_mean(tf.nn.relu(1.0 - disc(xr, training=True)))
                  + tf.reduce_mean(tf.nn.relu(1.0 + disc(gen(z), training=True))))
    dg = dt.gradient(d_loss, disc.trainable_weights)
    d_opt.apply_gradients(zip(dg, disc.trainable_weights))
    with tf.GradientTape() as gt:
        g_loss = -tf.reduce_mean(disc(gen(z, training=True), training=True))
    gg = gt.gradient(g_loss, gen.trainable_weights)
    g_opt.apply_gradients(zip(gg, gen.trainable_weights))
    return dg, gg


dg, gg = step(tf.constant(real))
assert all(g is not None and float(tf.norm(g)) > 0 for g in list(dg) + list(gg))
