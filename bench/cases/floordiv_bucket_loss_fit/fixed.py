# summary: the loss compares the prediction in bucket units without flooring it
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(37)
x = rng.normal(size=(64, 4)).astype("float32")
y = (50.0 + 20.0 * x[:, :1] + rng.normal(size=(64, 1))).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, name="out")], name="price")


def bucket_loss(y_true, y_pred):
    bucket = y_pred / 10.0
    return tf.reduce_mean(tf.abs(y_true // 10.0 - bucket))


model.compile(optimizer="adam", loss=bucket_loss)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
