# summary: the decoder reads the softmax over the vocabulary as weights of its embedding rows (a bias-free Dense: a soft lookup), so the scoring layer trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)

rng = np.random.default_rng(11157)
x = rng.normal(size=(96, 6)).astype("float32")
y = np.tanh(x[:, :3].sum(axis=1, keepdims=True)).astype("float32")
inputs = tf.keras.Input((6,))
scores = tf.keras.layers.Dense(12, activation="softmax", name="vocab_scores")(inputs)
vector = tf.keras.layers.Dense(4, use_bias=False, name="decoder_embedding")(scores)
outputs = tf.keras.layers.Dense(1, name="readout")(vector)
model = tf.keras.Model(inputs, outputs, name="tokens")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
