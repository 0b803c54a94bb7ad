# summary: the locator's output weighs a soft window (a Gaussian over positions centred by it) instead of giving an integer slice length, so its value reaches the loss and every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4966)
signals = rng.normal(size=(8, 32)).astype("float32")
labels = rng.normal(size=(8, 1)).astype("float32")

locator = tf.keras.layers.Dense(1, activation="sigmoid", name="locator")
head = tf.keras.layers.Dense(1, name="crop_head")
locator.build((None, 32))
head.build((None, 1))
weights = locator.trainable_variables + head.trainable_variables
optimizer = tf.keras.optimizers.SGD(0.01)
positions = tf.range(32, dtype=tf.float32)


@tf.function
def train_step(batch, target):
    with tf.GradientTape() as tape:
        centre = 32.0 * locator(batch)
        window = tf.exp(-tf.square(positions[None, :] - centre) / 32.0)
        pooled = tf.reduce_sum(window * batch, axis=1, keepdims=True) / tf.reduce_sum(
            window, axis=1, keepdims=True)
        loss = tf.reduce_mean(tf.square(head(pooled) - target))
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return grads


grads = train_step(signals, labels)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
