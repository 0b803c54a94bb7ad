# summary: the model outputs the float score and is trained on it; integers are made from its predictions after training, outside the model
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2218)
features = rng.uniform(size=(64, 5)).astype("float32")
counts = rng.integers(0, 4, size=(64, 1)).astype("float32")

model = tf.keras.Sequential([
    tf.keras.Input((5,)),
    tf.keras.layers.Dense(6, activation="softplus", name="hidden"),
    tf.keras.layers.Dense(1, name="score"),
], name="rounded_out")
model.compile(optimizer="sgd", loss="mean_squared_error")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(features, counts, epochs=1, batch_size=16, verbose=0)
buckets = tf.keras.layers.Discretization(bin_boundaries=[0.5, 1.5, 2.5])(model(features))
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
