# summary: the dataset yields raw inputs and the encoder runs inside the tape with the head, so both are trained
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(30)
x = rng.normal(size=(64, 6)).astype("float32")
y = (x[:, :2].sum(axis=1, keepdims=True) > 0).astype("float32")
encoder = tf.keras.Sequential([tf.keras.Input((6,)),
                               tf.keras.layers.Dense(4, activation="relu", name="enc")], name="encoder")
head = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1, name="cls")], name="head")
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)
optimizer = tf.keras.optimizers.Adam(1e-2)
sources = encoder.trainable_variables + head.trainable_variables
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)

for inputs, labels in dataset:
    with tf.GradientTape() as tape:
        loss = bce(labels, head(encoder(inputs, training=True), training=True))
    grads = tape.gradient(loss, sources)
    assert all(g is not None for g in grads)
    optimizer.apply_gradients(zip(grads, sources))
assert len(grads) == 4
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
