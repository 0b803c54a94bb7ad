# source: https://github.com/tensorflow/tensorflow/issues/12753
# summary: a convolution's feature map is downscaled with tf.image.resize (bilinear) before a dense head; the resize's gradient is sparse in the image but flows, and every weight of the step gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(12753)
images = rng.uniform(size=(16, 16, 16, 1)).astype("float32")
targets = images.mean(axis=(1, 2)).astype("float32")
conv = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu", name="conv")
head = tf.keras.layers.Dense(1, name="head")
conv.build((None, 16, 16, 1))
head.build((None, 64))
sources = conv.trainable_variables + head.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(batch, y):
    with tf.GradientTape() as tape:
        small = tf.image.resize(conv(batch), (4, 4), method="bilinear")
        pred = head(tf.reshape(small, [-1, 64]))
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(images, targets)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
