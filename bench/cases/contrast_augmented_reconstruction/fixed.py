# summary: the contrast stretch is written with differentiable ops (scale around the per-image, per-channel mean), so the restorer trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(62145)
degraded = tf.constant(rng.uniform(size=(6, 4, 4, 3)).astype("float32"))
reference = tf.constant(rng.uniform(size=(6, 4, 4, 3)).astype("float32"))
restorer = tf.keras.Sequential([tf.keras.Input((4, 4, 3)),
                                tf.keras.layers.Dense(3, activation="sigmoid", name="pixels")],
                               name="restorer")
optimizer = tf.keras.optimizers.Adam(1e-2)


def stretch(images, factor):
    mean = tf.reduce_mean(images, axis=[1, 2], keepdims=True)
    return (images - mean) * factor + mean


@tf.function
def train_step(images, target):
    with tf.GradientTape() as tape:
        restored = restorer(images, training=True)
        stretched = stretch(restored, 1.5)
        loss = tf.reduce_mean(tf.abs(stretched - target))
    grads = tape.gradient(loss, restorer.trainable_variables)
    optimizer.apply_gradients(zip(grads, restorer.trainable_variables))
    return grads


grads = train_step(degraded, reference)
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads), grads
print("ok")
