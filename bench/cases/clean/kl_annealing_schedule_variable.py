# summary: a non-trainable KL weight (a tf.Variable schedule) is read in the loss and stepped
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(122)
x = rng.random((16, 6)).astype("float32")
encoder = tf.keras.layers.Dense(4, name="enc")
decoder = tf.keras.layers.Dense(6, name="dec")
vae = tf.keras.Sequential([tf.keras.layers.Input((6,)), encoder, decoder], name="vae")
beta = tf.Variable(0.0, trainable=False, name="kl_beta")
optimizer = tf.keras.optimizers.Adam(1e-3)

for _ in range(2):
    with tf.GradientTape() as tape:
        mu, log_var = tf.split(encoder(x), 2, axis=-1)
        z = mu + tf.exp(0.5 * log_var) * tf.random.normal(tf.shape(mu), seed=9)
        rec = tf.reduce_mean(tf.square(decoder(tf.concat([z, z], axis=-1)) - x))
        kl = -0.5 * tf.reduce_mean(1 + log_var - mu ** 2 - tf.exp(log_var))
        loss = rec + beta * kl
    grads = tape.gradient(loss, vae.trainable_variables)
    optimizer.apply_gradients(zip(grads, vae.trainable_variables, strict=False))
    beta.assign(tf.minimum(1.0, beta + 0.5))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
