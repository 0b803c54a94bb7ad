# summary: a @tf.function step accumulates gradients into variables and applies them every fourth batch
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(4)
x = rng.normal(size=(12, 8, 5)).astype("float32")
y = x.sum(axis=2, keepdims=True).astype("float32")

model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, "relu", name="hidden"),
                          keras.layers.Dense(1, name="out")])
optimizer = keras.optimizers.Adam(1e-2)
sums = [tf.Variable(tf.zeros_like(v), trainable=False) for v in model.trainable_variables]
start = [v.numpy().copy() for v in model.trainable_variables]


@tf.function
def accumulate(xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(xb) - yb))
    grads = tape.gradient(loss, model.trainable_variables)
    for total, g in zip(sums, grads):
        total.assign_add(g)
    return loss


@tf.function
def apply():
    optimizer.apply_gradients(zip([s / 4.0 for s in sums], model.trainable_variables))
    for total in sums:
        total.assign(tf.zeros_like(total))


for batch in range(12):
    accumulate(x[batch], y[batch])
    if batch % 4 == 3:
        apply()
assert all(not np.allclose(s, v.numpy()) for s, v in zip(start, model.trainable_variables))
