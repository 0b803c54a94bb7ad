# summary: the per-sample losses stay one tensor; mean and spread use tf.math
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(15)
features = rng.normal(size=(12, 4)).astype("float32")
labels = rng.integers(0, 3, size=12)
model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(10, activation="relu", name="h"),
                             tf.keras.layers.Dense(3, name="out")], name="iris")
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


def spread_loss(x, y):
    losses = loss_object(y, model(x))
    return tf.math.reduce_std(losses) + tf.reduce_mean(losses)


with tf.GradientTape() as tape:
    loss_value = spread_loss(features, labels)
grads = tape.gradient(loss_value, model.trainable_variables)
print(float(loss_value))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
