# source: https://github.com/keras-team/keras/issues/11157
# summary: a Lambda casts the raw bucket-id input column to int32 for an Embedding, next to a Dense branch on the features, in a model trained by fit; no learned layer is behind the cast, so every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)

rng = np.random.default_rng(11157)
x = rng.normal(size=(96, 6)).astype("float32")
ids = rng.integers(0, 12, size=(96, 1)).astype("float32")
y = (np.tanh(x[:, :3].sum(axis=1, keepdims=True)) + 0.1 * ids).astype("float32")
features = tf.keras.Input((6,))
bucket = tf.keras.Input((1,))
token = tf.keras.layers.Lambda(lambda t: tf.cast(t[:, 0], tf.int32), name="to_id")(bucket)
vector = tf.keras.layers.Embedding(12, 4, name="bucket_embedding")(token)
hidden = tf.keras.layers.Dense(4, activation="tanh", name="hidden")(features)
merged = tf.keras.layers.Concatenate()([hidden, vector])
outputs = tf.keras.layers.Dense(1, name="readout")(merged)
model = tf.keras.Model([features, bucket], outputs, name="mixed")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit([x, ids], y, epochs=2, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
