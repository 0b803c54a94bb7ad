# summary: the penalty is computed with TensorFlow ops on y_pred
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1)
x = rng.normal(size=(64, 6)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                             tf.keras.layers.Dense(3, activation="relu", name="enc"),
                             tf.keras.layers.Dense(6, name="dec")], name="denoiser")


def mse_plus_energy(y_true, y_pred):
    energy = tf.reduce_mean(tf.abs(y_pred), axis=-1)
    return tf.reduce_mean(tf.square(y_true - y_pred), axis=-1) + energy


model.compile(optimizer="sgd", loss=mse_plus_energy, run_eagerly=True)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, x, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
