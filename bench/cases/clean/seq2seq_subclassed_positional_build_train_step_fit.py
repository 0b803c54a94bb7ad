# source: https://keras.io/examples/nlp/neural_machine_translation_with_transformer/
# summary: a subclassed encoder-decoder with a positional embedding layer that makes its position table in build and computes a padding mask with keras.ops.not_equal, causal self-attention and cross-attention, a custom train_step with a padding-masked token loss and a tracked loss metric, fit on a tf.data pipeline
import numpy as np
import tensorflow as tf
import keras
from keras import layers, ops

keras.utils.set_random_seed(0)


class PositionalEmbedding(layers.Layer):
    def __init__(self, vocab, length, dim, **kwargs):
        super().__init__(**kwargs)
        self.tok = layers.Embedding(vocab, dim, mask_zero=True)
        self.length, self.dim = length, dim

    def build(self, input_shape):
        self.pos = self.add_weight(shape=(self.length, self.dim), initializer="random_normal", name="pos")

    def call(self, x):
        return self.tok(x) + self.pos[: ops.shape(x)[-1]]

    def compute_mask(self, x, mask=None):
        return ops.not_equal(x, 0)


class Seq2Seq(keras.Model):
    def __init__(self, vocab=30, length=8, dim=16):
        super().__init__()
        self.enc_emb = PositionalEmbedding(vocab, length, dim)
        self.dec_emb = PositionalEmbedding(vocab, length, dim)
        self.enc_att = layers.MultiHeadAttention(2, 8)
        self.dec_self = layers.MultiHeadAttention(2, 8)
        self.dec_cross = layers.MultiHeadAttention(2, 8)
        self.norms = [layers.LayerNormalization() for _ in range(3)]
        self.proj = layers.Dense(vocab)
        self.loss_tracker = keras.metrics.Mean(name="loss")

    def call(self, inputs, training=False):
        src, tgt = inputs
        e = self.enc_emb(src)
        e = self.norms[0](e + self.enc_att(e, e, training=training))
        d = self.dec_emb(tgt)
        d = self.norms[1](d + self.dec_self(d, d, use_causal_mask=True, training=training))
        d = self.norms[2](d + self.dec_cross(d, e, training=training))
        return self.proj(d)

    def train_step(self, data):
        (src, tgt_in), tgt_out = data
        mask = tf.cast(tf.not_equal(tgt_out, 0), tf.float32)
        with tf.GradientTape() as tape:
            logits = self((src, tgt_in), training=True)
            per_token = keras.losses.sparse_categorical_crossentropy(tgt_out, logits, from_logits=True)
            loss = tf.reduce_sum(per_token * mask) / tf.maximum(tf.reduce_sum(mask), 1.0)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        return {"loss": self.loss_tracker.result()}

    @property
    def metrics(self):
        return [self.loss_tracker]


rng = np.random.default_rng(51)
src = rng.integers(1, 30, (16, 8))
src[:, 6:] = 0
tgt = rng.integers(1, 30, (16, 9))
tgt[:, 7:] = 0
ds = tf.data.Dataset.from_tensor_slices(((src, tgt[:, :-1]), tgt[:, 1:])).batch(8)
model = Seq2Seq()
model.compile(optimizer=keras.optimizers.Adam(1e-3))
model((src[:1], tgt[:1, :-1]))
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(ds, epochs=1, verbose=0)
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
