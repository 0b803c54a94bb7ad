# source: https://github.com/google/grain/issues/1368
# summary: a training loop augments its NumPy batches in a ThreadPoolExecutor (no TensorFlow op in the workers) and runs the forward pass and loss in the main thread inside the tape; every weight gets a gradient
from concurrent.futures import ThreadPoolExecutor

import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(1368)
batches = [rng.normal(size=(16, 4)).astype("float32") for _ in range(3)]
targets = [rng.normal(size=(16, 1)).astype("float32") for _ in range(3)]


def jitter(batch):
    noise = np.random.default_rng(int(abs(batch[0, 0]) * 1000)).normal(0.0, 0.05, size=batch.shape)
    return (batch + noise).astype("float32")


model = keras.Sequential([keras.Input((4,)),
                          keras.layers.Dense(8, activation="tanh", name="aug_hidden"),
                          keras.layers.Dense(1, name="aug_out")], name="aug_regressor")

with ThreadPoolExecutor(max_workers=2) as pool:
    augmented = list(pool.map(jitter, batches))

for batch, wanted in zip(augmented, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(batch, training=True) - wanted))
    grads = tape.gradient(loss, model.trainable_variables)
    assert len(grads) == 4
    assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
