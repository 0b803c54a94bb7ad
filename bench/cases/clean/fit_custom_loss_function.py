# summary: Keras fit with a custom (differentiable) loss function, in graph mode
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(114)
x = rng.normal(size=(64, 4)).astype("float32")
y = rng.normal(size=(64, 2)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(2, name="out")], name="mlp")


def log_cosh(y_true, y_pred):
    err = y_pred - y_true
    return tf.reduce_mean(err + tf.nn.softplus(-2.0 * err) - tf.math.log(2.0), axis=-1)


model.compile(optimizer="adam", loss=log_cosh)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
