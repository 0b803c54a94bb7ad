# summary: a straight-through estimator keeps the sampled keys but passes the gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(7)
x = rng.normal(size=(64, 10)).astype("float32")
y = (rng.random((64, 12)) > 0.7).astype("float32")


def floor_sampling(probs):
    keys = tf.floor(probs + tf.random.uniform(tf.shape(probs)))
    return probs + tf.stop_gradient(keys - probs)


model = tf.keras.Sequential([tf.keras.layers.Input((10,)),
                             tf.keras.layers.Dense(12, activation="sigmoid", name="enc"),
                             tf.keras.layers.Lambda(floor_sampling, name="keys"),
                             tf.keras.layers.Dense(12, activation="sigmoid", name="head")],
                            name="piano")
model.compile(optimizer="adam", loss="binary_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
