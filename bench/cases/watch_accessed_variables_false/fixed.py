# summary: the default tape watches every trainable variable it sees
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(37)
images = tf.constant(rng.random((8, 8, 8, 3)).astype("float32"))
labels = tf.constant(rng.integers(0, 4, size=8))
model = tf.keras.Sequential([tf.keras.layers.Input((8, 8, 3)),
                             tf.keras.layers.Conv2D(4, 3, activation="relu", name="c1"),
                             tf.keras.layers.GlobalAveragePooling2D(),
                             tf.keras.layers.Dense(4, name="head")], name="encoder")
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

with tf.GradientTape() as tape:
    loss = loss_object(labels, model(images))
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
