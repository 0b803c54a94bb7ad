# summary: the predictions are materialised with a list comprehension inside the tape block and the loss is computed there too, so the forward passes are recorded and every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2018)
x = rng.normal(size=(48, 5)).astype("float32")
y = rng.normal(size=(48, 1)).astype("float32")
chunks = [tf.constant(x[i:i + 16]) for i in range(0, 48, 16)]
wanted = [tf.constant(y[i:i + 16]) for i in range(0, 48, 16)]

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="relu", name="chunk_hidden"),
                          keras.layers.Dense(1, name="chunk_out")], name="chunk_regressor")

with tf.GradientTape() as tape:
    predictions = [model(c) for c in chunks]
    loss = tf.add_n([tf.reduce_mean(tf.square(p - t)) for p, t in zip(predictions, wanted)])
grads = tape.gradient(loss, model.trainable_variables)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
