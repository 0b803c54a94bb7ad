# summary: masked autoencoder: patches shuffled by tf.argsort of uniform noise, the visible ones gathered with the integer indices, the encoder and decoder trained on the masked patches only (restored with the inverse argsort, the decoder mixing positions through their mean), a @tf.function step
# source: https://keras.io/examples/vision/masked_image_modeling/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(29)
patches = np.random.default_rng(29).normal(size=(8, 12, 6)).astype("float32")
n_patch, keep = 12, 4
encoder = layers.Dense(8, activation="relu", name="encoder")
decoder = layers.Dense(6, name="decoder")
mask_token = tf.Variable(tf.zeros((1, 1, 8)), name="mask_token")
opt = keras.optimizers.Adam(1e-3)


@tf.function
def step(p):
    b = tf.shape(p)[0]
    noise = tf.random.uniform((b, n_patch))
    shuffle = tf.argsort(noise, axis=-1)
    restore = tf.argsort(shuffle, axis=-1)
    visible_idx, masked_idx = shuffle[:, :keep], shuffle[:, keep:]
    with tf.GradientTape() as tape:
        visible = encoder(tf.gather(p, visible_idx, batch_dims=1))
        filler = tf.tile(mask_token, [b, n_patch - keep, 1])
        full = tf.gather(tf.concat([visible, filler], axis=1), restore, batch_dims=1)
        full = full + tf.reduce_mean(full, axis=1, keepdims=True)
        rec = decoder(full)
        target = tf.gather(p, masked_idx, batch_dims=1)
        loss = tf.reduce_mean(tf.square(tf.gather(rec, masked_idx, batch_dims=1) - target))
    weights = encoder.trainable_weights + decoder.trainable_weights + [mask_token]
    grads = tape.gradient(loss, weights)
    opt.apply_gradients(zip(grads, weights))
    return grads


grads = step(tf.constant(patches))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
