# source: https://github.com/CompVis/taming-transformers/issues/35
# cause: stop-gradient|non-differentiable-op
# rule: TM401
# weights: comp_encoder/comp_hidden/kernel, comp_encoder/comp_hidden/bias, comp_encoder/comp_latent/kernel, comp_encoder/comp_latent/bias
# mode: function
# summary: a compression model quantises its latent with a helper that floors it to bins and means a straight-through estimator, but writes it with the terms swapped (binned + stop_gradient(latent - binned)); the forward value is the latent and the backward pass meets tf.floor, so the decoder trains and the encoder gets None
# lint: yes
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
    return binned + tf.stop_gradient(latent - binned)  # expect: stop-gradient|non-differentiable-op primary


@tf.function
def train_step(batch):
    with tf.GradientTape() as tape:
        code = quantize(encoder(batch, training=True))
        loss = tf.reduce_mean(tf.abs(decoder(code, training=True) - batch))
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return grads


grads = train_step(patches)
print("encoder grads are None:", [g is None for g in grads[:4]])
