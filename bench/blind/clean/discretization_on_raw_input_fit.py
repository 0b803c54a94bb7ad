# source: https://keras.io/api/layers/preprocessing_layers/numerical/discretization/
# summary: a Discretization layer buckets a raw input feature (before any learned layer) and an Embedding reads the bucket ids, next to a Dense branch on the other features; fit trains every weight
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2024)
age = rng.uniform(18, 80, size=(128, 1)).astype("float32")
other = rng.normal(size=(128, 3)).astype("float32")
y = ((age[:, 0] > 45) ^ (other[:, 0] > 0)).astype("float32")[:, None]
age_in = tf.keras.Input((1,), name="age")
other_in = tf.keras.Input((3,), name="other")
bucket = tf.keras.layers.Discretization(bin_boundaries=[30.0, 45.0, 60.0], name="age_bucket")(age_in)
embedded = tf.keras.layers.Flatten()(tf.keras.layers.Embedding(4, 2, name="age_embed")(bucket))
dense = tf.keras.layers.Dense(4, activation="relu", name="other_dense")(other_in)
merged = tf.keras.layers.Concatenate()([embedded, dense])
out = tf.keras.layers.Dense(1, activation="sigmoid", name="out")(merged)
model = tf.keras.Model([age_in, other_in], out, name="tabular")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit([age, other], y, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 5
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
