# summary: the rotation is applied by bilinear sampling written with differentiable ops (the rotated grid's corner pixels are gathered and blended with weights that depend on the angle), so the angle network gets gradients
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(30413)
template = np.zeros((9, 9), "float32")
template[1:8, 4] = 1.0
tilted = np.stack([np.rot90(template, k=1)] * 4)[..., None].astype("float32")
upright = np.stack([template] * 4)[..., None]

angle_net = tf.keras.Sequential([tf.keras.Input((9, 9, 1)), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(1, name="angle")], name="angle_net")
optimizer = tf.keras.optimizers.Adam(1e-2)


def rotate(images, angles, size=9):
    centre = (size - 1) / 2.0
    ys, xs = tf.meshgrid(tf.range(size, dtype=tf.float32), tf.range(size, dtype=tf.float32),
                         indexing="ij")
    c, s = tf.cos(angles)[:, :, None], tf.sin(angles)[:, :, None]
    src_x = c * (xs - centre) - s * (ys - centre) + centre + 0.3
    src_y = s * (xs - centre) + c * (ys - centre) + centre + 0.3
    src_x = tf.clip_by_value(src_x, 0.0, size - 1.001)
    src_y = tf.clip_by_value(src_y, 0.0, size - 1.001)
    x0, y0 = tf.floor(src_x), tf.floor(src_y)
    wx, wy = src_x - x0, src_y - y0
    flat = tf.reshape(images, [tf.shape(images)[0], -1])

    def pick(yy, xx):
        idx = tf.reshape(tf.cast(yy * size + xx, tf.int32), [tf.shape(images)[0], -1])
        return tf.reshape(tf.gather(flat, idx, batch_dims=1), tf.shape(xx))

    out = ((1 - wx) * (1 - wy) * pick(y0, x0) + wx * (1 - wy) * pick(y0, x0 + 1)
           + (1 - wx) * wy * pick(y0 + 1, x0) + wx * wy * pick(y0 + 1, x0 + 1))
    return out[..., None]


with tf.GradientTape() as tape:
    rotated = rotate(tilted, angle_net(tilted) + 0.1)
    loss = tf.reduce_mean(tf.square(rotated - upright))
grads = tape.gradient(loss, angle_net.trainable_variables)
optimizer.apply_gradients(zip(grads, angle_net.trainable_variables))
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
