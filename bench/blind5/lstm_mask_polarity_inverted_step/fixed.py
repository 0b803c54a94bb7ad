# summary: the mask keeps the real tokens (tf.not_equal(ids, 0)), the Keras convention, so the LSTM reads the sequence and every weight gets a gradient
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
    keep_mask = tf.not_equal(ids, 0)
    with tf.GradientTape() as tape:
        h = lstm(embed(ids), mask=keep_mask)
        loss = xent(y, head(h))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(tokens, labels)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_sum(tf.abs(tf.convert_to_tensor(g)))) > 0 for g in grads)
