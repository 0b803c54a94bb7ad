# summary: the integer labels are cast to the predictions' float dtype, not the predictions to int32
import numpy as np
import tensorflow as tf

tf.keras.mixed_precision.set_global_policy("mixed_float16")
tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(61771)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 10, size=(64, 1)).astype("int32")


def count_error(y_true, y_pred):
    diff = tf.cast(y_true, y_pred.dtype) - y_pred
    return tf.reduce_mean(tf.square(diff))


model = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, name="out", dtype="float32")], name="mp_net")
model.compile(optimizer="adam", loss=count_error)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
