# summary: the number of masked positions is rounded and kept at least 1 (max(1, round(0.15 * length))), so every short sequence has a masked token and every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

vocab, seq_len, mask_id = 20, 6, 1
rng = np.random.default_rng(1193)
tokens = rng.integers(2, vocab, size=(16, seq_len)).astype("int32")
n_mask = max(1, round(0.15 * seq_len))

model = keras.Sequential([keras.Input((seq_len,), dtype="int32"),
                          keras.layers.Embedding(vocab, 8, name="token_embedding"),
                          keras.layers.Dense(8, activation="relu", name="token_mixer"),
                          keras.layers.Dense(vocab, name="vocab_logits")], name="tiny_mlm")


@tf.function
def train_step(ids):
    noise = tf.random.stateless_uniform(tf.shape(ids), seed=[3, 4])
    rank = tf.argsort(tf.argsort(noise, axis=-1), axis=-1)
    masked = tf.cast(rank < n_mask, tf.float32)
    corrupted = tf.where(masked > 0, mask_id, ids)
    with tf.GradientTape() as tape:
        logits = model(corrupted, training=True)
        xent = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=ids, logits=logits)
        loss = tf.reduce_sum(xent * masked) / (tf.reduce_sum(masked) + 1e-6)
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(tokens)
assert len(grads) == 5
assert all(g is not None and float(tf.reduce_sum(tf.abs(tf.convert_to_tensor(g)))) > 0 for g in grads)
