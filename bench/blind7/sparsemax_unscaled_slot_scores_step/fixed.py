# summary: the scores are divided by a temperature matched to their spread before sparsemax, so several slots stay in the support and the scoring layer gets a gradient along with the value and head layers
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
temperature = 100.0


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        raw_scores, slot_values = model(x, training=True)
        weights = keras.ops.sparsemax(raw_scores / temperature, axis=-1)
        pooled = tf.reduce_sum(weights[..., None] * slot_values, axis=1)
        loss = tf.reduce_mean(tf.square(model_head(pooled, training=True) - y))
    return tape.gradient(loss, params)


grads = train_step(slots, target)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
