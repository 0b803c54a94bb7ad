# source: https://github.com/tensorflow/tensorflow/issues/50454
# summary: gradient accumulation: each micro-batch's gradients are added into non-trainable tf.Variable accumulators with assign_add, applied and reset every third step in a tf.function
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(50454)
x = rng.normal(size=(48, 4)).astype("float32")
y = (x @ rng.normal(size=(4, 1))).astype("float32")
model = tf.keras.Sequential([tf.keras.Input((4,)),
                             tf.keras.layers.Dense(6, activation="tanh", name="h"),
                             tf.keras.layers.Dense(1, name="out")], name="accumulated")
optimizer = tf.keras.optimizers.SGD(0.1)
accumulators = [tf.Variable(tf.zeros_like(v), trainable=False) for v in model.trainable_variables]


@tf.function
def micro_step(features, targets, apply_now):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(features, training=True) - targets))
    grads = tape.gradient(loss, model.trainable_variables)
    for acc, g in zip(accumulators, grads):
        acc.assign_add(g / 3.0)
    if apply_now:
        optimizer.apply_gradients(zip([a.read_value() for a in accumulators],
                                      model.trainable_variables))
        for acc in accumulators:
            acc.assign(tf.zeros_like(acc))
    return grads


before = [w.numpy().copy() for w in model.trainable_variables]
for i in range(6):
    grads = micro_step(x[8 * i:8 * i + 8], y[8 * i:8 * i + 8], tf.constant(i % 3 == 2))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_variables, strict=True))
