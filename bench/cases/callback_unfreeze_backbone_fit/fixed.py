# summary: the fine-tuning phase is a second fit after compile(), which traces a new train step
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(47906)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 3, size=64)
backbone = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                                tf.keras.layers.Dense(8, activation="relu", name="feat1")],
                               name="backbone")
backbone.trainable = False
model = tf.keras.Sequential([backbone, tf.keras.layers.Dense(3, name="classes")],
                            name="classifier")
loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss=loss)
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
backbone.trainable = True
model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss=loss)
before = [w.numpy().copy() for w in backbone.weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(not np.allclose(a, w.numpy()) for a, w in zip(before, backbone.weights))
