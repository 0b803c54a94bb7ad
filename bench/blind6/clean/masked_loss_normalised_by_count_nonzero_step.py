# source: https://www.tensorflow.org/api_docs/python/tf/math/count_nonzero
# summary: a sequence loss sums the squared error over real (unpadded) steps and divides by tf.math.count_nonzero(mask), the number of real steps; the count is an integer of the data mask and carries no gradient by design, while the error term reaches every weight
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(15)
x = rng.normal(size=(8, 10, 3)).astype("float32")
y = rng.normal(size=(8, 10, 1)).astype("float32")
lengths = rng.integers(4, 11, size=8)
mask = (np.arange(10)[None, :] < lengths[:, None]).astype("float32")[..., None]

model = keras.Sequential([keras.Input((10, 3)),
                          keras.layers.Dense(8, activation="tanh", name="seq_hidden"),
                          keras.layers.Dense(1, name="seq_out")], name="seq_model")


@tf.function
def train_step(inputs, wanted, valid):
    with tf.GradientTape() as tape:
        err = tf.square(model(inputs, training=True) - wanted) * valid
        loss = tf.reduce_sum(err) / tf.cast(tf.math.count_nonzero(valid), tf.float32)
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, y, mask)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
