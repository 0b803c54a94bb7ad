# source: https://tensorchiefs.github.io/dlday2018/tutorial/tf-eager-tutorial.html
# cause: outside-tape
# weights: chunk_regressor/chunk_hidden/kernel, chunk_regressor/chunk_hidden/bias, chunk_regressor/chunk_out/kernel, chunk_regressor/chunk_out/bias
# mode: eager
# summary: a training loop builds the per-chunk predictions with map(model, chunks) inside the GradientTape block and sums the losses after the block; map is lazy in Python 3, so the model runs only when the sum consumes it, outside the tape, and every gradient is None
# lint: no (map is ordinary Python; when it runs depends on when it is consumed)
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
    predictions = map(model, chunks)  # expect: outside-tape primary
loss = tf.add_n([tf.reduce_mean(tf.square(p - t)) for p, t in zip(predictions, wanted)])  # accept: outside-tape
grads = tape.gradient(loss, model.trainable_variables)
print({v.path: None if g is None else float(tf.reduce_sum(tf.abs(g))) for v, g in zip(model.trainable_variables, grads)})
