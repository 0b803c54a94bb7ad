# summary: mixed_float16 with a LossScaleOptimizer and gradient accumulation: each micro-batch's scaled loss differentiated, the float32 gradients summed into non-trainable accumulators, applied (and zeroed) every second micro-batch
# source: https://www.tensorflow.org/guide/mixed_precision
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.mixed_precision.set_global_policy("mixed_float16")
keras.utils.set_random_seed(18)
rng = np.random.default_rng(18)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.normal(size=(64, 1)).astype("float32")
model = keras.Sequential([keras.Input((6,)), layers.Dense(16, activation="relu", name="h"),
                          layers.Dense(1, name="out", dtype="float32")], name="mp_accum")
optimizer = keras.optimizers.LossScaleOptimizer(keras.optimizers.Adam(1e-2))
model(x[:1])
accum = [tf.Variable(tf.zeros_like(w), trainable=False) for w in model.trainable_variables]
optimizer.build(model.trainable_variables)


@tf.function
def micro_step(a, b, apply_now):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(a, training=True) - b))
        scaled = optimizer.scale_loss(loss)
    grads = tape.gradient(scaled, model.trainable_variables)
    for acc, g in zip(accum, grads):
        acc.assign_add(tf.cast(g, acc.dtype) / 2.0)
    if apply_now:
        optimizer.apply_gradients(zip([a_.read_value() for a_ in accum], model.trainable_variables))
        for acc in accum:
            acc.assign(tf.zeros_like(acc))
    return loss


before = [w.numpy().copy() for w in model.trainable_variables]
for i in range(8):
    micro_step(x[i * 8:(i + 1) * 8], y[i * 8:(i + 1) * 8], i % 2 == 1)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
