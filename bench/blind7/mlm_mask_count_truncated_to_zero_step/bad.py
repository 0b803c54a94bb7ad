# source: https://github.com/huggingface/tokenizers/issues/1193
# cause: zero-at-runtime
# weights: tiny_mlm/token_embedding/embeddings, tiny_mlm/token_mixer/kernel, tiny_mlm/token_mixer/bias, tiny_mlm/vocab_logits/kernel, tiny_mlm/vocab_logits/bias
# mode: function
# summary: a masked-language-model step masks int(0.15 * length) positions per sequence; the sequences are short (6 tokens), int(0.9) is 0, no position is ever masked, the masked cross-entropy is exactly 0 and every weight gets an exact zero gradient
# lint: no (the count is ordinary Python arithmetic; it is zero only for short sequences)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

vocab, seq_len, mask_id = 20, 6, 1
rng = np.random.default_rng(1193)
tokens = rng.integers(2, vocab, size=(16, seq_len)).astype("int32")
n_mask = int(0.15 * seq_len)  # expect: zero-at-runtime primary

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
print({v.path: float(tf.reduce_sum(tf.abs(tf.convert_to_tensor(g)))) for v, g in zip(model.trainable_variables, grads)})
