# summary: the loss is binary cross-entropy; accuracy stays a metric
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(52)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x[:, :1] + x[:, 1:2] > 0).astype("float32")

model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, activation="sigmoid", name="p")], name="spam")
model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
