# source: https://github.com/google-research/seed_rl/issues/21
# summary: a traced learner step accumulates each gradient into a replica-local buffer made with synchronization=ON_READ (non-trainable by design, written with assign_add after the tape) and applies the buffers every second call; the buffers are never gradient sources and every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(210)
obs = tf.constant(rng.normal(size=(16, 4)), tf.float32)
target = tf.constant(rng.normal(size=(16, 2)), tf.float32)

model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2, name="value")], name="critic")
buffers = [tf.Variable(tf.zeros_like(v), name=f"grad_buffer_{i}",
                       synchronization=tf.VariableSynchronization.ON_READ,
                       aggregation=tf.VariableAggregation.SUM)
           for i, v in enumerate(model.trainable_variables)]
optimizer = keras.optimizers.SGD(0.05)


@tf.function
def accumulate():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(obs) - target))
    grads = tape.gradient(loss, model.trainable_variables)
    for buffer, grad in zip(buffers, grads):
        buffer.assign_add(grad)
    return [tf.reduce_sum(tf.abs(g)) for g in grads]


@tf.function
def apply():
    optimizer.apply_gradients(zip([b / 2.0 for b in buffers], model.trainable_variables))
    for buffer in buffers:
        buffer.assign(tf.zeros_like(buffer))


for _ in range(2):
    norms = [accumulate(), accumulate()]
    apply()
    assert all(float(n) > 0 for pair in norms for n in pair), norms
