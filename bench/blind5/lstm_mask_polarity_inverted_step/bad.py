# source: https://github.com/facebookresearch/detr/issues/96
# cause: zero-at-runtime
# weights: tok_embed/embeddings, tok_lstm/lstm_cell/kernel, tok_lstm/lstm_cell/recurrent_kernel, tok_lstm/lstm_cell/bias, tok_head/kernel
# mode: function
# summary: a sequence classifier ported from PyTorch builds its padding mask with the PyTorch convention (True = padding) and passes it as the Keras LSTM mask, where True means keep; this batch has no padding, so every step is masked, the LSTM returns its zero initial state, and the embedding, LSTM and head kernel get all-zero gradients while only the head bias moves
# lint: no (the mask polarity is a value: nothing in the source marks tf.equal as wrong)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(96)
tokens = rng.integers(1, 40, size=(32, 10))
labels = (tokens[:, 0] > 20).astype("int32")

embed = tf.keras.layers.Embedding(40, 8, name="tok_embed")
lstm = tf.keras.layers.LSTM(12, name="tok_lstm")
head = tf.keras.layers.Dense(2, name="tok_head")
inputs = tf.keras.Input((10,), dtype="int32")
model = tf.keras.Model(inputs, head(lstm(embed(inputs))), name="tagger")
xent = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def train_step(ids, y):
    pad_mask = tf.equal(ids, 0)  # expect: zero-at-runtime primary
    with tf.GradientTape() as tape:
        h = lstm(embed(ids), mask=pad_mask)
        loss = xent(y, head(h))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(tokens, labels)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(model.trainable_variables, grads)})
