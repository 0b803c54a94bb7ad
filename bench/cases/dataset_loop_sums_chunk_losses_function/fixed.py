# summary: the chunk losses are computed with tensor ops on the batch itself (a reshape into chunks), so the tape records the whole sum and every weight gets a gradient
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
    with tf.GradientTape() as tape:
        errors = tf.square(model(features, training=True) - targets)
        total = tf.reduce_sum(tf.reduce_mean(tf.reshape(errors, (-1, 8)), axis=1))
    return total, tape.gradient(total, model.trainable_variables)


total, grads = train_step(x, y)
print("loss:", float(total))
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
