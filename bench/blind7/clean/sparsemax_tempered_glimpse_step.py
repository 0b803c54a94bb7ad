# source: https://github.com/deep-spin/entmax/issues/13
# summary: a set model pools its slots with a hand-written sparsemax (sort, cumulative sum, threshold) over scores divided by a temperature matched to their scale; several slots stay in the support (some weights are exactly 0, by design) and the scoring, value and head layers all get gradients
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(13)
slots = rng.normal(size=(16, 6, 8)).astype("float32")
target = rng.normal(size=(16, 1)).astype("float32")

inputs = keras.Input((6, 8))
values = keras.layers.Dense(4, name="glimpse_value")(inputs)
scores = keras.ops.squeeze(keras.layers.Dense(1, name="glimpse_score")(inputs), -1)
model = keras.Model(inputs, [scores, values], name="glimpse_pooler")
head = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1, name="glimpse_head")], name="glimpse_out")
params = model.trainable_variables + head.trainable_variables


def sparsemax(z):
    z_sorted = tf.sort(z, direction="DESCENDING", axis=-1)
    k = tf.range(1, z.shape[-1] + 1, dtype=z.dtype)
    cssv = tf.cumsum(z_sorted, axis=-1) - 1.0
    k_z = tf.reduce_sum(tf.cast(z_sorted * k > cssv, tf.int32), axis=-1, keepdims=True)
    tau = tf.gather(cssv, k_z - 1, batch_dims=1) / tf.cast(k_z, z.dtype)
    return tf.nn.relu(z - tau)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        raw, slot_values = model(x, training=True)
        weights = sparsemax(raw / 0.5)
        pooled = tf.reduce_sum(weights[..., None] * slot_values, axis=1)
        loss = tf.reduce_mean(tf.square(head(pooled, training=True) - y))
    return tape.gradient(loss, params), weights


grads, w = train_step(slots, target)
assert np.allclose(tf.reduce_sum(w, axis=-1).numpy(), 1.0, atol=1e-5)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
