# summary: a small Transformer text classifier: integer token ids, a padding mask from tf.not_equal(ids, 0), learned position embeddings from tf.range, MultiHeadAttention with attention_mask (the mask made with keras.ops on the symbolic input), fit
# source: https://keras.io/examples/nlp/text_classification_with_transformer/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(3)
rng = np.random.default_rng(3)
ids = rng.integers(1, 100, size=(32, 12)).astype("int32")
ids[:, 9:] = 0
y = rng.integers(0, 2, size=(32,))


class TokenAndPosition(layers.Layer):
    def __init__(self, maxlen, vocab, dim, **kw):
        super().__init__(**kw)
        self.tok = layers.Embedding(vocab, dim)
        self.pos = layers.Embedding(maxlen, dim)

    def call(self, x):
        positions = tf.range(start=0, limit=tf.shape(x)[-1], delta=1)
        return self.tok(x) + self.pos(positions)


class Block(layers.Layer):
    def __init__(self, dim, **kw):
        super().__init__(**kw)
        self.att = layers.MultiHeadAttention(num_heads=2, key_dim=dim)
        self.ffn = keras.Sequential([layers.Dense(16, activation="relu"), layers.Dense(dim)])
        self.n1 = layers.LayerNormalization()
        self.n2 = layers.LayerNormalization()

    def call(self, x, pad):
        mask = pad[:, tf.newaxis, :]
        h = self.n1(x + self.att(x, x, attention_mask=mask))
        return self.n2(h + self.ffn(h))


inp = keras.Input((12,), dtype="int32")
pad = keras.ops.not_equal(inp, 0)
h = TokenAndPosition(12, 100, 8, name="emb")(inp)
h = Block(8, name="block")(h, pad)
h = layers.GlobalAveragePooling1D()(h)
out = layers.Dense(2, activation="softmax", name="cls")(h)
model = keras.Model(inp, out)
model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(ids, y, batch_size=16, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
