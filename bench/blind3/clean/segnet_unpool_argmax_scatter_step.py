# source: https://github.com/kwotsin/TensorFlow-ENet/issues/1
# summary: a SegNet-style decoder unpools with the integer argmax indices returned by tf.nn.max_pool_with_argmax, scattering the pooled values back with tf.scatter_nd; the indices are integers on purpose, the values stay differentiable, and every encoder and decoder weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1)
images = rng.uniform(size=(4, 8, 8, 1)).astype("float32")
targets = (images > 0.6).astype("float32")

encoder = tf.keras.layers.Conv2D(3, 3, padding="same", activation="relu", name="enc")
decoder = tf.keras.layers.Conv2D(1, 3, padding="same", name="dec")
encoder.build((None, 8, 8, 1))
decoder.build((None, 8, 8, 3))
sources = encoder.trainable_variables + decoder.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-2)


def unpool(pooled, argmax, full_shape):
    flat_size = tf.reduce_prod(full_shape)
    flat = tf.scatter_nd(tf.reshape(argmax, [-1, 1]), tf.reshape(pooled, [-1]),
                         tf.cast(tf.reshape(flat_size, [1]), tf.int64))
    return tf.reshape(flat, full_shape)


@tf.function
def train_step(batch, mask):
    with tf.GradientTape() as tape:
        features = encoder(batch)
        pooled, argmax = tf.nn.max_pool_with_argmax(features, 2, 2, "VALID",
                                                    include_batch_in_index=True)
        restored = unpool(pooled, argmax, tf.shape(features, out_type=tf.int64))
        loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(mask, decoder(restored)))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(images, targets)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
