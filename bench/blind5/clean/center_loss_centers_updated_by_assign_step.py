# source: https://github.com/tensorflow/tensorflow/issues/37410
# summary: center loss: the class centres live in a non-trainable variable read on the loss path and moved by assign_sub after each step (not by the optimizer), while the embedding network is trained by cross-entropy plus the distance to its class centre; every trainable weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 3, size=64)

embed = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(8, activation="relu", name="cl_embed")],
                            name="embedder")
classifier = tf.keras.layers.Dense(3, name="cl_logits")
classifier.build((None, 8))
centers = tf.Variable(tf.zeros((3, 8)), trainable=False, name="class_centers")
xent = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
params = embed.trainable_variables + classifier.trainable_variables


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        e = embed(features, training=True)
        own = tf.gather(centers, labels)
        loss = xent(labels, classifier(e)) + 0.1 * tf.reduce_mean(tf.reduce_sum(tf.square(e - own), axis=1))
    grads = tape.gradient(loss, params)
    centers.assign_sub(0.5 * tf.math.unsorted_segment_mean(own - e, labels, 3))
    return grads


grads = train_step(x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
