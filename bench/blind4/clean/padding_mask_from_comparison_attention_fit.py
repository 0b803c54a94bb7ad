# source: https://github.com/stevezheng23/sequence_labeling_tf/pull/62
# summary: a token classifier builds its attention padding mask with tf.not_equal(token_ids, 0) and a causal mask with a comparison of positions; the comparisons read only integer ids and positions and merely gate the softmax scores, so the embedding, projections and head all train in fit
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(62)
ids = rng.integers(1, 20, size=(64, 8))
ids[:, 6:] = 0
labels = (ids[:, :3].sum(axis=1) % 2).astype("float32")[:, None]


class MaskedSelfAttention(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.embed = keras.layers.Embedding(20, 6, name="tok_embed")
        self.query = keras.layers.Dense(6, name="q_proj")
        self.key = keras.layers.Dense(6, name="k_proj")

    def call(self, token_ids):
        x = self.embed(token_ids)
        scores = tf.matmul(self.query(x), self.key(x), transpose_b=True) / 6.0 ** 0.5
        keep = tf.not_equal(token_ids, 0)[:, None, :]
        steps = tf.range(tf.shape(token_ids)[1])
        causal = (steps[:, None] >= steps[None, :])[None]
        scores = tf.where(tf.logical_and(keep, causal), scores, -1e9)
        return tf.matmul(tf.nn.softmax(scores), x)


model = keras.Sequential([keras.Input((8,), dtype="int32"),
                          MaskedSelfAttention(name="masked_attention"),
                          keras.layers.GlobalAveragePooling1D(),
                          keras.layers.Dense(1, activation="sigmoid", name="cls")],
                         name="masked_tagger")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(ids, labels, epochs=2, batch_size=16, verbose=0)
assert len(model.trainable_weights) == 7
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
