# summary: a GPT-style decoder block in the functional API: token and position embeddings added, MultiHeadAttention with use_causal_mask=True, residual LayerNormalization and a feed-forward, next-token targets shifted by one, sparse cross-entropy from logits, fit
# source: https://keras.io/examples/generative/text_generation_with_miniature_gpt/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(46)
rng = np.random.default_rng(46)
vocab, maxlen, dim = 30, 8, 16
text = rng.integers(1, vocab, size=(32, maxlen + 1))
x, y = text[:, :-1], text[:, 1:]


class TokenAndPositionEmbedding(layers.Layer):
    def __init__(self, maxlen, vocab_size, embed_dim, **kw):
        super().__init__(**kw)
        self.token_emb = layers.Embedding(vocab_size, embed_dim, name="tok")
        self.pos_emb = layers.Embedding(maxlen, embed_dim, name="pos")

    def call(self, x):
        positions = tf.range(start=0, limit=tf.shape(x)[-1], delta=1)
        return self.token_emb(x) + self.pos_emb(positions)


inputs = keras.Input(shape=(maxlen,), dtype="int32")
h = TokenAndPositionEmbedding(maxlen, vocab, dim, name="embed")(inputs)
attn = layers.MultiHeadAttention(2, dim // 2, name="attn")(h, h, use_causal_mask=True)
h = layers.LayerNormalization(epsilon=1e-6, name="ln1")(h + attn)
ffn = layers.Dense(dim, name="ffn_out")(layers.Dense(32, activation="relu", name="ffn_in")(h))
h = layers.LayerNormalization(epsilon=1e-6, name="ln2")(h + ffn)
outputs = layers.Dense(vocab, name="lm_head")(h)
model = keras.Model(inputs, outputs)
model.compile("adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(x, y, batch_size=16, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
