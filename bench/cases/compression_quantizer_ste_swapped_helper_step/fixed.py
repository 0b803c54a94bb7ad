# summary: the quantiser's straight-through estimator passes the latent with the rounding inside the stop_gradient (latent + stop_gradient(binned - latent)): the forward value is binned and the encoder gets the decoder's gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(27)
patches = rng.normal(size=(20, 10)).astype("float32")

encoder = tf.keras.Sequential([tf.keras.Input((10,)),
                               tf.keras.layers.Dense(8, activation="relu", name="comp_hidden"),
                               tf.keras.layers.Dense(4, name="comp_latent")],
                              name="comp_encoder")
decoder = tf.keras.Sequential([tf.keras.Input((4,)),
                               tf.keras.layers.Dense(10, name="comp_recon")], name="comp_decoder")
weights = encoder.trainable_variables + decoder.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-3)


def quantize(latent, bins=8.0):
    binned = tf.floor(latent * bins) / bins
    return latent + tf.stop_gradient(binned - latent)


@tf.function
def train_step(batch):
    with tf.GradientTape() as tape:
        code = quantize(encoder(batch, training=True))
        loss = tf.reduce_mean(tf.abs(decoder(code, training=True) - batch))
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return grads


grads = train_step(patches)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
