# source: https://www.tensorflow.org/api_docs/python/tf/VariableAggregation
# summary: a custom loop keeps a replica-local running loss in a tf.Variable with synchronization=ON_READ (non-trainable by design, updated with assign_add outside the tape) next to a dense block; the block's weights get gradients and the counter is never a gradient source
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(88)
x = rng.normal(size=(32, 6)).astype("float32")
y = (x + 0.5 * np.tanh(x)).astype("float32")

block = keras.Sequential([keras.Input((6,)), keras.layers.Dense(6, activation="tanh", name="tracked_branch")],
                         name="tracked_block")
running_loss = tf.Variable(0.0, name="running_loss", synchronization=tf.VariableSynchronization.ON_READ,
                           aggregation=tf.VariableAggregation.SUM)

for start in range(0, 32, 8):
    with tf.GradientTape() as tape:
        out = x[start:start + 8] + block(x[start:start + 8], training=True)
        loss = tf.reduce_mean(tf.square(out - y[start:start + 8]))
    grads = tape.gradient(loss, block.trainable_variables)
    running_loss.assign_add(loss)
    assert len(grads) == 2
    assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
assert float(running_loss.numpy()) > 0
