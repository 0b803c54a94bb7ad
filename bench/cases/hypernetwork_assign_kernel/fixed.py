# summary: the main network's forward pass uses the predicted weights as tensors
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(23)
x = rng.normal(size=(16, 3)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")
hyper = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(4, name="wpred")], name="hyper")
optimizer = tf.keras.optimizers.Adam(1e-3)

with tf.GradientTape() as tape:
    weights_pred = tf.reduce_mean(hyper(x), axis=0)
    w0 = tf.reshape(weights_pred[:3], (3, 1))
    b0 = weights_pred[3:]
    loss = tf.reduce_mean(tf.square(x @ w0 + b0 - y))
grads = tape.gradient(loss, hyper.trainable_weights)
optimizer.apply_gradients(zip(grads, hyper.trainable_weights, strict=False))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
