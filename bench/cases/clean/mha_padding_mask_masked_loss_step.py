# summary: a tiny transformer encoder: Embedding, MultiHeadAttention given an attention_mask built from token ids != 0, a per-token loss masked by the padding and normalised by the mask's sum, a tf.function step
# source: https://www.tensorflow.org/text/tutorials/transformer
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(15)
rng = np.random.default_rng(15)
vocab, seq = 20, 7
tokens = rng.integers(1, vocab, size=(16, seq)).astype("int32")
tokens[:, 5:] = 0
labels = rng.integers(1, vocab, size=(16, seq)).astype("int32")
labels[:, 5:] = 0

embed = layers.Embedding(vocab, 8, name="embed")
mha = layers.MultiHeadAttention(num_heads=2, key_dim=4, name="mha")
norm = layers.LayerNormalization(name="norm")
head = layers.Dense(vocab, name="head")
optimizer = keras.optimizers.Adam(1e-2)
loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


def forward(ids):
    x = embed(ids)
    pad = tf.not_equal(ids, 0)
    attn_mask = pad[:, tf.newaxis, :] & pad[:, :, tf.newaxis]
    x = norm(x + mha(x, x, attention_mask=attn_mask))
    return head(x)


def masked_loss(real, pred):
    mask = tf.cast(real != 0, pred.dtype)
    loss = loss_object(real, pred) * mask
    return tf.reduce_sum(loss) / tf.reduce_sum(mask)


@tf.function
def train_step(ids, tgt):
    with tf.GradientTape() as tape:
        loss = masked_loss(tgt, forward(ids))
    weights = embed.trainable_variables + mha.trainable_variables + norm.trainable_variables + head.trainable_variables
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return loss


forward(tokens[:1])
weights = embed.trainable_variables + mha.trainable_variables + norm.trainable_variables + head.trainable_variables
before = [w.numpy().copy() for w in weights]
for _ in range(3):
    train_step(tokens, labels)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, weights))
