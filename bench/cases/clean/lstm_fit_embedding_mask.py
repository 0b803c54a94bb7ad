# source: https://github.com/tensorflow/tensorflow/issues/43258
# summary: fit (graph mode) on an Embedding with mask_zero, a bidirectional LSTM and a GRU: integer token ids and masks feed Keras' while loops
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(43258)
tokens = rng.integers(1, 20, size=(32, 7))
tokens[:, 5:] = 0  # padding
labels = rng.integers(0, 2, size=(32,))
model = tf.keras.Sequential([
    tf.keras.layers.Input((7,), dtype="int32"),
    tf.keras.layers.Embedding(20, 6, mask_zero=True, name="emb"),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(4, return_sequences=True), name="bilstm"),
    tf.keras.layers.GRU(4, name="gru"),
    tf.keras.layers.Dense(2, name="cls")], name="tagger")
model.compile(optimizer="adam",
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(tokens, labels, epochs=1, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
