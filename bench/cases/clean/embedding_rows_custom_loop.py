# summary: an eager loop trains an embedding whose batches touch a few rows each (sparse gradients), next to a dense head
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(9)
tokens = rng.integers(0, 50, size=(6, 8, 3))
targets = rng.normal(size=(6, 8, 1)).astype("float32")

model = keras.Sequential([keras.Input((3,), dtype="int32"),
                          keras.layers.Embedding(50, 4, name="embed"),
                          keras.layers.GlobalAveragePooling1D(),
                          keras.layers.Dense(1, name="out")])
optimizer = keras.optimizers.SGD(0.1)
start = [v.numpy().copy() for v in model.trainable_variables]
for batch in range(6):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(tokens[batch]) - targets[batch]))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
assert all(not np.allclose(s, v.numpy()) for s, v in zip(start, model.trainable_variables))
