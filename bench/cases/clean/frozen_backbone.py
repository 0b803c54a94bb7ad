# summary: transfer learning: a frozen backbone (trainable=False) under a trainable head
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(104)
x = rng.normal(size=(16, 6)).astype("float32")
labels = rng.integers(0, 3, size=16)
backbone = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                                tf.keras.layers.Dense(8, activation="relu", name="b1"),
                                tf.keras.layers.BatchNormalization(name="bn")], name="backbone")
backbone.trainable = False
model = tf.keras.Sequential([backbone, tf.keras.layers.Dense(3, name="head")], name="classifier")
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam(1e-3)

with tf.GradientTape() as tape:
    loss = loss_fn(labels, model(x, training=False))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
