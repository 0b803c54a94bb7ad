# summary: train on binary cross-entropy; the rounded accuracy is only reported
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4)
x = rng.normal(size=(100, 3)).astype("float32")
y = (x.sum(axis=1, keepdims=True) > 0).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                             tf.keras.layers.Dense(4, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, activation="sigmoid", name="p")], name="clf")
optimizer = tf.keras.optimizers.Adam(0.01)
bce = tf.keras.losses.BinaryCrossentropy()

with tf.GradientTape() as tape:
    prediction = model(x)
    loss = bce(y, prediction)
grads = tape.gradient(loss, model.trainable_weights)
optimizer.apply_gradients(zip(grads, model.trainable_weights, strict=False))
hits = tf.math.count_nonzero(tf.equal(tf.round(prediction), y))
print(float(loss), int(hits))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
