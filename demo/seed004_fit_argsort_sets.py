"""Seed 004: `model.fit` with a custom loss built from keras eval, argsort and set intersection.

The user wanted to reward overlap between the top-10 predicted and true classes. `fit` dies
with "No gradients provided for any variable": `tf.keras.backend.eval` leaves TensorFlow,
`tf.argsort` yields integer indices and `tf.sets.intersection` has no gradient.

Run: python -m tapemagic run demo/seed004_fit_argsort_sets.py
"""

import numpy as np
import tensorflow as tf

tf.random.set_seed(0)
rng = np.random.default_rng(0)
x_train = rng.normal(size=(32, 20)).astype("float32")
y_train = rng.normal(size=(32, 30)).astype("float32")


def top10_loss(y_true, y_pred):
    bt = tf.nn.softmax(y_pred)
    ct = tf.keras.backend.eval(bt)
    top_pred = tf.argsort(ct, direction="DESCENDING")[:, :10]
    top_true = tf.argsort(y_true, direction="DESCENDING")[:, :10]
    common = tf.sets.intersection(top_pred, top_true)
    overlap = tf.cast(tf.sets.size(common), tf.float32)
    return 1.0 - overlap / 10.0


model = tf.keras.Sequential([
    tf.keras.layers.Input((20,)),
    tf.keras.layers.Dense(16, activation="relu", name="features"),
    tf.keras.layers.Dense(30, name="scores"),
])
model.compile(optimizer="adam", loss=top10_loss)
model.fit(x_train, y_train, epochs=1, batch_size=16, verbose=0)
