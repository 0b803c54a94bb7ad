# summary: the frozen feature network is applied to the y_pred tensor itself
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(13)
x = rng.random((64, 8)).astype("float32")
features = tf.keras.Sequential([tf.keras.layers.Input((8,)),
                                tf.keras.layers.Dense(4, name="f")], name="features")
features.trainable = False
model = tf.keras.Sequential([tf.keras.layers.Input((8,)),
                             tf.keras.layers.Dense(3, activation="relu", name="code"),
                             tf.keras.layers.Dense(8, activation="sigmoid", name="recon")],
                            name="ae")


def perceptual(y_true, y_pred):
    return tf.reduce_mean(tf.square(features(y_pred) - features(y_true)), axis=-1)


model.compile(optimizer="adam", loss=perceptual, run_eagerly=True)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, x, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
