# summary: the warp samples the image at the affine-transformed grid with differentiable bilinear interpolation written from gather and weights, so the localisation network gets gradients through the sampling coordinates and trains with the filter
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2659)
fixed_images = rng.uniform(size=(8, 12, 12, 1)).astype("float32")
moving_images = np.roll(fixed_images, shift=2, axis=2)

prefilter = keras.layers.Conv2D(1, 3, padding="same", name="prefilter")
locnet = keras.Sequential([keras.Input((12, 12, 1)), keras.layers.Flatten(),
                           keras.layers.Dense(6, kernel_initializer="zeros",
                                              bias_initializer=keras.initializers.Constant(
                                                  [1, 0, 0, 0, 1, 0]), name="theta")],
                          name="locnet")
prefilter.build((None, 12, 12, 1))
optimizer = keras.optimizers.Adam(1e-2)
sources = prefilter.trainable_variables + locnet.trainable_variables


def bilinear_warp(images, theta):
    size = images.shape[1]
    grid = tf.stack(tf.meshgrid(tf.range(size, dtype=tf.float32),
                                tf.range(size, dtype=tf.float32), indexing="xy"), -1)
    grid = tf.reshape(grid, [1, -1, 2])
    a = tf.reshape(theta, [-1, 2, 3])
    coords = tf.einsum("bij,bpj->bpi", a[:, :, :2], tf.tile(grid, [tf.shape(images)[0], 1, 1]))
    coords = coords + a[:, None, :, 2]
    x = tf.clip_by_value(coords[..., 0], 0.0, size - 1.001)
    y = tf.clip_by_value(coords[..., 1], 0.0, size - 1.001)
    x0, y0 = tf.floor(x), tf.floor(y)
    wx, wy = x - x0, y - y0
    flat = tf.reshape(images, [tf.shape(images)[0], -1])

    def pick(yy, xx):
        return tf.gather(flat, tf.cast(yy * size + xx, tf.int32), batch_dims=1)

    out = ((1 - wx) * (1 - wy) * pick(y0, x0) + wx * (1 - wy) * pick(y0, x0 + 1)
           + (1 - wx) * wy * pick(y0 + 1, x0) + wx * wy * pick(y0 + 1, x0 + 1))
    return tf.reshape(out, tf.shape(images))


@tf.function
def register_step(moving, target):
    with tf.GradientTape() as tape:
        theta = locnet(moving) + tf.constant([0, 0, 0.5, 0, 0, 0.5])
        warped = bilinear_warp(prefilter(moving), theta)
        loss = tf.reduce_mean(tf.square(warped - target))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return loss, grads


loss, grads = register_step(moving_images, fixed_images)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
