# source: https://github.com/Biohub/esm/issues/92
# cause: integer-dtype|non-differentiable-op
# weights: encoder/latent/kernel, encoder/latent/bias
# mode: function
# summary: a VQ autoencoder decodes from the codebook rows gathered at the argmin code indices, with no straight-through path; the reconstruction loss trains the decoder and the codebook but the encoder gets None
# lint: yes
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
        codes = tf.argmin(distances, axis=-1)  # accept: integer-dtype|non-differentiable-op
        quantised = tf.gather(codebook, codes)  # expect: integer-dtype|non-differentiable-op primary
        loss = tf.reduce_mean(tf.square(decoder(quantised, training=True) - batch))
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return grads


grads = train_step(x)
print({getattr(v, "path", v.name): g is not None for v, g in zip(variables, grads)})
