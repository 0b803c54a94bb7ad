# summary: a training loop from scratch with each gradient clipped elementwise by tf.clip_by_value to [-0.01, 0.01] before apply_gradients (large gradients clip, still non-zero), a tf.function step
# source: https://keras.io/guides/writing_a_training_loop_from_scratch/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(20)
rng = np.random.default_rng(20)
x = (10.0 * rng.normal(size=(32, 5))).astype("float32")
y = rng.integers(0, 3, size=(32,)).astype("int32")
model = keras.Sequential([keras.Input((5,)), layers.Dense(16, activation="relu", name="dense_1"),
                          layers.Dense(3, name="predictions")], name="clipped")
optimizer = keras.optimizers.SGD(1.0)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def train_step(a, b):
    with tf.GradientTape() as tape:
        loss = loss_fn(b, model(a, training=True))
    grads = tape.gradient(loss, model.trainable_weights)
    grads = [tf.clip_by_value(g, -0.01, 0.01) for g in grads]
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    return loss


before = [w.numpy().copy() for w in model.trainable_weights]
for _ in range(2):
    train_step(x, y)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
