# source: https://github.com/keras-team/keras-io/pull/455
# cause: integer-dtype|non-differentiable-op
# weights: zoom_net/zoom_conv/kernel, zoom_net/zoom_conv/bias, zoom_net/zoom_scale/kernel, zoom_net/zoom_scale/bias
# mode: function
# summary: a learnable-resizing front end predicts how far to zoom into each batch, turns the zoom into a crop size with tf.cast(..., tf.int32) and crops/resizes with tf.image ops; the integer size carries no gradient, so the refinement conv trains while the zoom network gets None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(455)
images = rng.uniform(size=(6, 16, 16, 1)).astype("float32")
targets = tf.image.resize(tf.image.central_crop(images, 0.75), (16, 16)).numpy()

zoom_net = tf.keras.Sequential([
    tf.keras.Input((16, 16, 1)),
    tf.keras.layers.Conv2D(4, 3, activation="relu", name="zoom_conv"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(1, activation="sigmoid", name="zoom_scale"),
], name="zoom_net")
refine = tf.keras.layers.Conv2D(1, 3, padding="same", name="refine")
refine.build((None, 16, 16, 1))
sources = zoom_net.trainable_variables + refine.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(batch, target):
    with tf.GradientTape() as tape:
        scale = 0.5 + 0.5 * tf.reduce_mean(zoom_net(batch, training=True))
        crop = tf.cast(scale * 16.0, tf.int32)  # expect: integer-dtype|non-differentiable-op primary
        offset = (16 - crop) // 2
        window = tf.image.crop_to_bounding_box(batch, offset, offset, crop, crop)
        zoomed = tf.image.resize(window, (16, 16))
        loss = tf.reduce_mean(tf.square(refine(zoomed) - target))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(images, targets)
print("grads are None:", [g is None for g in grads])
