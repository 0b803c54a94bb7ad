# summary: a VQ autoencoder gathers codebook rows at the argmin codes and decodes the straight-through z + stop_gradient(q - z); the codebook and commitment terms each stop the gradient on one side, so the encoder, the decoder and the codebook all train
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(7)
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
        quantised = tf.gather(codebook, codes)
        codebook_term = tf.reduce_mean(tf.square(quantised - tf.stop_gradient(z)))
        commitment = tf.reduce_mean(tf.square(tf.stop_gradient(quantised) - z))
        straight = z + tf.stop_gradient(quantised - z)
        loss = (tf.reduce_mean(tf.square(decoder(straight, training=True) - batch))
                + codebook_term + 0.25 * commitment)
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return grads


grads = train_step(x)
assert all(g is not None and float(tf.reduce_sum(tf.abs(tf.convert_to_tensor(g)))) > 0
           for g in grads), grads
print("ok")
