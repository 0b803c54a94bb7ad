# source: https://www.tensorflow.org/api_docs/python/tf/VariableSynchronization
# cause: not-watched
# weights: residual_gate
# mode: eager
# summary: a learned residual gate is created as tf.Variable(..., synchronization=ON_READ, aggregation=MEAN), copied from a replica-local accumulator; an ON_READ variable defaults to trainable=False, the tape does not watch it, and its gradient is None while the dense block trains
# lint: no (trainable is never written; it follows from the synchronization argument)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(77)
x = rng.normal(size=(32, 6)).astype("float32")
y = (x + 0.5 * np.tanh(x)).astype("float32")

block = keras.Sequential([keras.Input((6,)), keras.layers.Dense(6, activation="tanh", name="residual_branch")],
                         name="residual_block")
gate = tf.Variable(0.1, name="residual_gate", synchronization=tf.VariableSynchronization.ON_READ,  # expect: not-watched primary
                   aggregation=tf.VariableAggregation.MEAN)
params = block.trainable_variables + [gate]

with tf.GradientTape() as tape:
    out = x + gate * block(x, training=True)
    loss = tf.reduce_mean(tf.square(out - y))
grads = tape.gradient(loss, params)
print({getattr(v, "path", v.name): None if g is None else float(tf.reduce_sum(tf.abs(g))) for v, g in zip(params, grads)})
