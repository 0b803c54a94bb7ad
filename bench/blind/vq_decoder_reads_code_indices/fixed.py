# summary: straight-through quantisation (z + stop_gradient(e - z)) plus codebook and commitment terms, so encoder, decoder and codebook all train
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(92)
x = tf.constant(rng.normal(size=(32, 6)).astype("float32"))
encoder = tf.keras.Sequential([tf.keras.Input((6,)),
                               tf.keras.layers.Dense(2, name="latent")], name="encoder")
decoder = tf.keras.Sequential([tf.keras.Input((2,)),
                               tf.keras.layers.Dense(6, name="recon")], name="decoder")
codebook = tf.Variable(rng.normal(size=(8, 2)).astype("float32"), name="codebook")
variables = encoder.trainable_variables + decoder.trainable_variables + [codebook]
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(batch):
    with tf.GradientTape() as tape:
        z = encoder(batch, training=True)
        distances = tf.reduce_sum(tf.square(z[:, None, :] - codebook[None]), axis=-1)
        codes = tf.argmin(distances, axis=-1)
        e = tf.gather(codebook, codes)
        quantised = z + tf.stop_gradient(e - z)
        loss = (tf.reduce_mean(tf.square(decoder(quantised, training=True) - batch))
                + tf.reduce_mean(tf.square(tf.stop_gradient(z) - e))
                + 0.25 * tf.reduce_mean(tf.square(z - tf.stop_gradient(e))))
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return grads


grads = train_step(x)
assert len(grads) == 5
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
