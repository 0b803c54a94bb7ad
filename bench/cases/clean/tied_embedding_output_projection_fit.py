# summary: a language model whose output projection reuses the input embedding matrix (weight tying, keras.ops.matmul with the transposed embeddings) in a custom layer, next-token ids from slicing the integer sequence, fit
# source: https://arxiv.org/abs/1608.05859
import numpy as np
import tensorflow as tf
import keras
from keras import layers, ops

keras.utils.set_random_seed(52)
seqs = np.random.default_rng(52).integers(1, 40, size=(32, 9)).astype("int32")
x, y = seqs[:, :-1], seqs[:, 1:]


class TiedLM(keras.Model):
    def __init__(self):
        super().__init__()
        self.emb = layers.Embedding(40, 16, name="emb")
        self.rnn = layers.GRU(16, return_sequences=True, name="gru")
        self.bias = self.add_weight(shape=(40,), initializer="zeros", name="out_bias")

    def call(self, ids):
        h = self.rnn(self.emb(ids))
        return ops.matmul(h, ops.transpose(self.emb.embeddings)) + self.bias


model = TiedLM()
model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model(x[:1])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=8, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
