# source: https://keras.io/examples/nlp/text_classification_with_transformer/
# summary: a Transformer classifier whose position embedding looks up tf.range(maxlen) (integer positions made inside call with keras.ops.arange) next to the token embedding, with a TransformerBlock of MultiHeadAttention, dropout and layer norms; compiled and fit
import numpy as np
import keras
from keras import layers, ops

keras.utils.set_random_seed(0)
MAXLEN, VOCAB, DIM = 8, 30, 16


class TokenAndPositionEmbedding(layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.token_emb = layers.Embedding(VOCAB, DIM, name="token")
        self.pos_emb = layers.Embedding(MAXLEN, DIM, name="position")

    def call(self, x):
        positions = self.pos_emb(ops.arange(0, ops.shape(x)[-1], 1))
        return self.token_emb(x) + positions


inp = keras.Input((MAXLEN,), dtype="int32")
h = TokenAndPositionEmbedding(name="embed")(inp)
att = layers.MultiHeadAttention(2, DIM, name="mha")(h, h)
h = layers.LayerNormalization(name="ln1")(h + layers.Dropout(0.1)(att))
ff = layers.Dense(DIM, name="ff2")(layers.Dense(32, activation="relu", name="ff1")(h))
h = layers.LayerNormalization(name="ln2")(h + layers.Dropout(0.1)(ff))
h = layers.GlobalAveragePooling1D()(h)
out = layers.Dense(2, activation="softmax", name="out")(h)
model = keras.Model(inp, out)
model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
rng = np.random.default_rng(38)
x, y = rng.integers(0, VOCAB, (32, MAXLEN)), rng.integers(0, 2, 32)
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=1, batch_size=8, verbose=0)
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
