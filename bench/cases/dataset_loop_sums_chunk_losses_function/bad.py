# source: https://github.com/tensorflow/tensorflow/issues/41594
# cause: non-differentiable-op|not-connected
# weights: chunked/chunk_hidden/kernel, chunked/chunk_hidden/bias, chunked/chunk_out/kernel, chunked/chunk_out/bias
# mode: function
# summary: a traced step splits the batch into chunks with tf.data (Dataset.from_tensor_slices((x, y)).batch(8)) and sums the chunk losses in a Python for loop inside the tape; autograph runs that loop as Dataset.reduce, whose function is traced into the dataset's own graph, so the summed loss reaches the tape from the reduce op only and every gradient is None (the same step run eagerly trains)
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(41594)
x = rng.normal(size=(32, 5)).astype("float32")
y = (x[:, :1] - x[:, 1:2]).astype("float32")

model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(8, activation="tanh", name="chunk_hidden"),
                             tf.keras.layers.Dense(1, name="chunk_out")], name="chunked")


@tf.function
def train_step(features, targets):
    chunks = tf.data.Dataset.from_tensor_slices((features, targets)).batch(8)
    total = tf.constant(0.0)
    with tf.GradientTape() as tape:
        for xb, yb in chunks:  # expect: non-differentiable-op|not-connected primary
            total += tf.reduce_mean(tf.square(model(xb, training=True) - yb))
    return total, tape.gradient(total, model.trainable_variables)


total, grads = train_step(x, y)
print("loss:", float(total), [g is None for g in grads])
