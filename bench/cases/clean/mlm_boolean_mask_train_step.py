# summary: masked language modelling: 15% of tokens replaced by a mask id, the loss only on masked positions selected by tf.boolean_mask, custom train_step with a loss tracker
# source: https://keras.io/examples/nlp/masked_language_modeling/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(56)
rng = np.random.default_rng(56)
V, T, MASK = 30, 8, 1
tokens = rng.integers(2, V, size=(32, T))
is_masked = rng.uniform(size=(32, T)) < 0.3
is_masked[:, 0] = True
inputs = np.where(is_masked, MASK, tokens)


class MaskedLM(keras.Model):
    def __init__(self):
        super().__init__()
        self.emb = layers.Embedding(V, 12)
        self.att = layers.MultiHeadAttention(2, 6)
        self.norm = layers.LayerNormalization()
        self.out = layers.Dense(V)
        self.tracker = keras.metrics.Mean(name="loss")

    def call(self, ids):
        h = self.emb(ids)
        return self.out(self.norm(h + self.att(h, h)))

    @property
    def metrics(self):
        return [self.tracker]

    def train_step(self, data):
        ids, labels, mask = data
        with tf.GradientTape() as tape:
            logits = self(ids, training=True)
            picked_logits = tf.boolean_mask(logits, mask)
            picked_labels = tf.boolean_mask(labels, mask)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(picked_labels, picked_logits))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.tracker.update_state(loss)
        return {"loss": self.tracker.result()}


model = MaskedLM()
model.compile(keras.optimizers.Adam(1e-3))
model(inputs[:1])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(tf.data.Dataset.from_tensor_slices((inputs, tokens, is_masked)).batch(8), epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
