# source: https://github.com/deep-spin/entmax-jax/issues/3
# cause: zero-at-runtime
# weights: slot_score/kernel, slot_score/bias
# mode: function
# summary: a set model pools its slots with sparsemax attention weights on raw, unscaled scores; the scores are spread far apart, sparsemax keeps a single slot with weight exactly 1 in every row, its Jacobian there is zero, and the scoring layer gets an exact zero gradient while the value and head layers train
# lint: no (sparsemax of scores is valid; it saturates only because of the score scale)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(3)
slots = (10.0 * rng.normal(size=(16, 6, 8))).astype("float32")
target = rng.normal(size=(16, 1)).astype("float32")

score_layer = keras.layers.Dense(1, name="slot_score")
value_layer = keras.layers.Dense(4, name="slot_value")
head = keras.layers.Dense(1, name="pooled_head")
inputs = keras.Input((6, 8))
values = value_layer(inputs)
scores = keras.ops.squeeze(score_layer(inputs), -1)
model = keras.Model(inputs, [scores, values], name="slot_pooler")
model_head = keras.Sequential([keras.Input((4,)), head], name="slot_head")
params = model.trainable_variables + model_head.trainable_variables


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        raw_scores, slot_values = model(x, training=True)
        weights = keras.ops.sparsemax(raw_scores, axis=-1)  # expect: zero-at-runtime primary
        pooled = tf.reduce_sum(weights[..., None] * slot_values, axis=1)
        loss = tf.reduce_mean(tf.square(model_head(pooled, training=True) - y))
    return tape.gradient(loss, params)


grads = train_step(slots, target)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(params, grads)})
