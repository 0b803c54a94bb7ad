# summary: model.fit with integer labels and sparse categorical cross-entropy
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(107)
x = rng.normal(size=(64, 5)).astype("float32")
y = rng.integers(0, 3, size=64).astype("int32")
model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(3, name="logits")], name="clf")
model.compile(optimizer="adam",
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
