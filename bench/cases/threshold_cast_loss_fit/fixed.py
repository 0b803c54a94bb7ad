# summary: the loss compares the probabilities themselves (the threshold is kept for metrics)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(3)
x = rng.normal(size=(64, 8)).astype("float32")
y = (x[:, :1] > 0).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((8,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, activation="sigmoid", name="p")],
                            name="detector")


def soft_error(y_true, y_pred):
    return tf.reduce_mean(tf.square(y_true - y_pred), axis=-1)


model.compile(optimizer="adam", loss=soft_error, metrics=["binary_accuracy"])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
