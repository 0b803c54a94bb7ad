# summary: a traced step passes its labels through a tf.py_function that only reshuffles data (a NumPy lookup table); the model runs on the tape outside it: nothing to report
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)
rng = np.random.default_rng(39969)
items = rng.normal(size=(12, 5)).astype("float32")
codes = rng.integers(0, 4, size=(12,)).astype("int64")
table = np.array([0.5, -1.0, 2.0, 0.0], dtype="float32")

model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(6, activation="relu", name="hidden"),
                             tf.keras.layers.Dense(1, name="out")], name="regressor")


def lookup(c):
    return table[c.numpy()][:, None]


@tf.function
def step(x, c):
    with tf.GradientTape() as tape:
        target = tf.py_function(lookup, [c], tf.float32)
        target.set_shape([None, 1])
        loss = tf.reduce_mean(tf.square(model(x, training=True) - target))
    return tape.gradient(loss, model.trainable_variables)


grads = step(items, codes)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads), grads
print("ok")
