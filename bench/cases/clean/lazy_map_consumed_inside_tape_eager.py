# summary: per-chunk predictions built with a lazy map(model, chunks) inside the GradientTape block and consumed there by the loss (the map runs while the tape records); a map of the labels is consumed after the block for logging only; every weight gets a gradient, eager
# source: https://docs.python.org/3/library/functions.html#map
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(7)
x = rng.normal(size=(48, 5)).astype("float32")
y = rng.normal(size=(48, 1)).astype("float32")
chunks = [tf.constant(x[i:i + 16]) for i in range(0, 48, 16)]
wanted = [tf.constant(y[i:i + 16]) for i in range(0, 48, 16)]

model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="tanh"),
                          keras.layers.Dense(1)], name="chunked")

with tf.GradientTape() as tape:
    predictions = map(model, chunks)
    loss = tf.add_n([tf.reduce_mean(tf.square(p - t)) for p, t in zip(predictions, wanted)])
    label_means = map(tf.reduce_mean, wanted)
print([round(float(m), 3) for m in label_means])
grads = tape.gradient(loss, model.trainable_variables)

assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
