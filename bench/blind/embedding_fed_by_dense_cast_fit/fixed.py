# summary: the branch's softmax over the 10 buckets weights the embedding rows (a soft lookup, a bias-free Dense), so every layer trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(826)
x = rng.normal(size=(128, 5)).astype("float32")
y = (x[:, :2].sum(axis=1, keepdims=True) ** 2).astype("float32")
inputs = tf.keras.Input((5,))
branch = tf.keras.layers.Dense(30, name="bucket_logits")(inputs)
branch = tf.keras.layers.Reshape((3, 10))(branch)
weights = tf.keras.layers.Softmax(name="soft_index")(branch)
embedded = tf.keras.layers.Dense(4, use_bias=False, name="embedding")(weights)
embedded = tf.keras.layers.Flatten()(embedded)
direct = tf.keras.layers.Dense(8, activation="relu", name="direct")(inputs)
merged = tf.keras.layers.Concatenate()([direct, embedded])
outputs = tf.keras.layers.Dense(1, name="out")(merged)
model = tf.keras.Model(inputs, outputs, name="hybrid")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
