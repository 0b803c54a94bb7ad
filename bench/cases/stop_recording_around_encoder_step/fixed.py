# summary: the encoder runs on the tape; stop_recording wraps only the accuracy read for logging
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(1)
rng = np.random.default_rng(1431)
images = rng.normal(size=(16, 8, 8, 1)).astype("float32")
labels = rng.integers(0, 3, size=(16,)).astype("int32")

encoder = tf.keras.Sequential([tf.keras.Input((8, 8, 1)),
                               tf.keras.layers.Conv2D(4, 3, name="conv"),
                               tf.keras.layers.GlobalAveragePooling2D(name="pool")], name="enc")
head = tf.keras.layers.Dense(3, name="head")
head.build((None, 4))
sources = encoder.trainable_variables + head.trainable_variables
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def step(batch, target):
    with tf.GradientTape() as tape:
        features = encoder(batch, training=True)
        logits = head(features)
        loss = tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(target, logits))
        with tape.stop_recording():
            hits = tf.equal(tf.argmax(logits, -1, output_type=tf.int32), target)
            accuracy = tf.reduce_mean(tf.cast(hits, tf.float32))
    grads = tape.gradient(loss, sources)
    return loss, accuracy, grads


loss, accuracy, grads = step(images, labels)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads), grads
print("ok", float(loss), float(accuracy))
