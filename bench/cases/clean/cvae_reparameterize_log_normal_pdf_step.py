# summary: the TF convolutional-VAE tutorial's shape: encode to mean/logvar with tf.split, reparameterize with tf.random.normal, a single-sample Monte Carlo ELBO from log_normal_pdf terms, a tf.function step
# source: https://www.tensorflow.org/tutorials/generative/cvae
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(13)
rng = np.random.default_rng(13)
x_train = (rng.uniform(size=(32, 8, 8, 1)) > 0.5).astype("float32")
latent = 2
encoder = keras.Sequential([keras.Input((8, 8, 1)), layers.Conv2D(4, 3, strides=2, activation="relu", name="enc_conv"),
                            layers.Flatten(), layers.Dense(2 * latent, name="enc_out")], name="encoder")
decoder = keras.Sequential([keras.Input((latent,)), layers.Dense(4 * 4 * 4, activation="relu", name="dec_in"),
                            layers.Reshape((4, 4, 4)),
                            layers.Conv2DTranspose(1, 3, strides=2, padding="same", name="dec_out")], name="decoder")
optimizer = keras.optimizers.Adam(1e-3)


def log_normal_pdf(sample, mean, logvar, raxis=1):
    log2pi = tf.math.log(2.0 * np.pi)
    return tf.reduce_sum(-0.5 * ((sample - mean) ** 2.0 * tf.exp(-logvar) + logvar + log2pi), axis=raxis)


def compute_loss(x):
    mean, logvar = tf.split(encoder(x), num_or_size_splits=2, axis=1)
    eps = tf.random.normal(shape=tf.shape(mean))
    z = eps * tf.exp(logvar * 0.5) + mean
    x_logit = decoder(z)
    cross_ent = tf.nn.sigmoid_cross_entropy_with_logits(logits=x_logit, labels=x)
    logpx_z = -tf.reduce_sum(cross_ent, axis=[1, 2, 3])
    logpz = log_normal_pdf(z, 0.0, 0.0)
    logqz_x = log_normal_pdf(z, mean, logvar)
    return -tf.reduce_mean(logpx_z + logpz - logqz_x)


@tf.function
def train_step(x):
    with tf.GradientTape() as tape:
        loss = compute_loss(x)
    weights = encoder.trainable_variables + decoder.trainable_variables
    gradients = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(gradients, weights))
    return loss


weights = encoder.trainable_variables + decoder.trainable_variables
before = [w.numpy().copy() for w in weights]
for batch in tf.data.Dataset.from_tensor_slices(x_train).batch(16):
    train_step(batch)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, weights))
