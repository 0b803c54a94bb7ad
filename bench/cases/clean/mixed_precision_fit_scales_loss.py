# summary: mixed_float16 with a tiny loss weight trained by fit (no run_eagerly): Keras wraps the optimizer in a LossScaleOptimizer and scales the loss itself, so the float16 gradients do not underflow
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)
keras.mixed_precision.set_global_policy("mixed_float16")

rng = np.random.default_rng(21)
x = rng.normal(size=(64, 8)).astype("float32")
y = rng.normal(size=(64, 1)).astype("float32")
model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(16, activation="tanh", name="h"),
                          keras.layers.Dense(1, name="out", dtype="float32")], name="mpfit")


def tiny_mse(labels, pred):
    return 1e-8 * tf.reduce_mean(tf.square(pred - labels))


model.compile(optimizer=keras.optimizers.SGD(1e4), loss=tiny_mse)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=64, epochs=1, verbose=0)
changed = [not np.array_equal(b, w.numpy()) for b, w in zip(before, model.trainable_weights)]
assert all(changed), changed
print("every weight changed:", changed)
keras.mixed_precision.set_global_policy("float32")
