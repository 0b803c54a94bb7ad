# summary: the learned projection feeds the head directly (hashing belongs to the raw input features, before any learned layer), so every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(175)
features = rng.normal(size=(64, 4)).astype("float32")
targets = rng.normal(size=(64, 1)).astype("float32")

model = tf.keras.Sequential([
    tf.keras.Input((4,)),
    tf.keras.layers.Dense(8, activation="relu", name="proj"),
    tf.keras.layers.Dense(1, name="head"),
], name="bucketed")
model.compile(optimizer="adam", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(features, targets, epochs=1, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
