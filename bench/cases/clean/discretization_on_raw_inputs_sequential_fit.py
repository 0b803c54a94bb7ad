# summary: a Sequential model buckets its raw input feature (Discretization, then CategoryEncoding) before any learned layer and is trained by fit: the preprocessing has no weights behind it, every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(20)
ages = rng.uniform(0.0, 90.0, size=(64, 1)).astype("float32")
targets = rng.normal(size=(64, 1)).astype("float32")

model = tf.keras.Sequential([
    tf.keras.Input((1,)),
    tf.keras.layers.Discretization(bin_boundaries=[18.0, 35.0, 60.0]),
    tf.keras.layers.CategoryEncoding(num_tokens=4, output_mode="one_hot"),
    tf.keras.layers.Dense(8, activation="relu", name="hidden"),
    tf.keras.layers.Dense(1, name="out"),
], name="age_model")
model.compile(optimizer="adam", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(ages, targets, epochs=1, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
