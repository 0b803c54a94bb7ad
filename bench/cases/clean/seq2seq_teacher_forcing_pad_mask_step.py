# summary: a GRU encoder-decoder trained with teacher forcing: the decoder input is the target shifted right, a loss mask from tf.math.logical_not(tf.math.equal(target, 0)) cast to float, a masked mean, a @tf.function step
# source: https://www.tensorflow.org/text/tutorials/nmt_with_attention
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(24)
rng = np.random.default_rng(24)
src = rng.integers(1, 20, size=(8, 7)).astype("int32")
tgt = rng.integers(1, 20, size=(8, 6)).astype("int32")
tgt[:, 4:] = 0
enc_emb, dec_emb = layers.Embedding(20, 8, name="enc_emb"), layers.Embedding(20, 8, name="dec_emb")
enc_gru = layers.GRU(16, return_state=True, name="enc_gru")
dec_gru = layers.GRU(16, return_sequences=True, name="dec_gru")
proj = layers.Dense(20, name="proj")
opt = keras.optimizers.Adam(1e-3)
scce = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


@tf.function
def step(src, tgt):
    dec_in = tf.concat([tf.ones_like(tgt[:, :1]), tgt[:, :-1]], axis=1)
    with tf.GradientTape() as tape:
        _, state = enc_gru(enc_emb(src))
        logits = proj(dec_gru(dec_emb(dec_in), initial_state=state))
        mask = tf.cast(tf.math.logical_not(tf.math.equal(tgt, 0)), logits.dtype)
        per_tok = scce(tgt, logits) * mask
        loss = tf.reduce_sum(per_tok) / tf.reduce_sum(mask)
    weights = (enc_emb.trainable_weights + enc_gru.trainable_weights + dec_emb.trainable_weights
               + dec_gru.trainable_weights + proj.trainable_weights)
    grads = tape.gradient(loss, weights)
    opt.apply_gradients(zip(grads, weights))
    return grads


grads = step(src, tgt)
assert all(g is not None and float(tf.norm(tf.convert_to_tensor(g))) > 0 for g in grads)
