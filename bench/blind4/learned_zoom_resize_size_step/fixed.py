# summary: the zoom is applied with tf.image.crop_and_resize on a centred box built from the float scale (the op is differentiable in its boxes), so the zoom network and the refinement conv both get gradients
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
        scale = 0.5 + 0.5 * zoom_net(batch, training=True)[:, 0]
        half = scale / 2.0
        boxes = tf.stack([0.5 - half, 0.5 - half, 0.5 + half, 0.5 + half], axis=1)
        zoomed = tf.image.crop_and_resize(batch, boxes, tf.range(tf.shape(batch)[0]), (16, 16))
        loss = tf.reduce_mean(tf.square(refine(zoomed) - target))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(images, targets)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
