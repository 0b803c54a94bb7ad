# summary: the number of kept pixels is rounded up and never below 1 (tf.maximum(ceil(...), 1)), so the hardest pixels carry a loss and every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(8958)
images = rng.normal(size=(4, 8, 8, 3)).astype("float32")
labels = rng.integers(0, 3, size=(4, 8, 8)).astype("int32")
top_k_percent_pixels = 0.001

model = keras.Sequential([keras.Input((8, 8, 3)),
                          keras.layers.Conv2D(8, 3, padding="same", activation="relu", name="seg_features"),
                          keras.layers.Conv2D(3, 1, name="seg_logits")], name="seg_net")


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        pixel_loss = tf.reshape(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits), [-1])
        num_pixels = tf.cast(tf.shape(pixel_loss)[0], tf.float32)
        k = tf.maximum(tf.cast(tf.math.ceil(top_k_percent_pixels * num_pixels), tf.int32), 1)
        hardest, _ = tf.math.top_k(pixel_loss, k=k)
        loss = tf.reduce_sum(hardest) / tf.maximum(tf.cast(k, tf.float32), 1.0)
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(images, labels)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
