# summary: the Keras transfer-learning recipe: fit the head, unfreeze, compile again, fit again
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1606)
x = rng.normal(size=(48, 6)).astype("float32")
y = rng.integers(0, 2, size=(48, 1)).astype("float32")
base = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                            tf.keras.layers.Dense(8, activation="relu", name="base1")],
                           name="base")
base.trainable = False
model = tf.keras.Sequential([base, tf.keras.layers.Dense(1, name="logit")], name="binary")
loss = tf.keras.losses.BinaryCrossentropy(from_logits=True)

model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss=loss)
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
base.trainable = True
model.compile(optimizer=tf.keras.optimizers.Adam(1e-4), loss=loss)
before = [w.numpy().copy() for w in model.weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(not np.allclose(a, w.numpy()) for a, w in zip(before, model.weights))
