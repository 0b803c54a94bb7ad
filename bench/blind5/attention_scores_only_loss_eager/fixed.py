# summary: the loss also scores the attention output against its target (the reconstruction term), so every projection of the layer gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(22775)
src = rng.normal(size=(8, 6, 4)).astype("float32")
target_align = tf.one_hot(np.tile(np.arange(6), (8, 1)), 6)[:, None]
target_out = src[:, ::-1]

mha = tf.keras.layers.MultiHeadAttention(num_heads=1, key_dim=4, name="align_mha")
mha(src, src)

with tf.GradientTape() as tape:
    out, scores = mha(src, src, return_attention_scores=True)
    loss = tf.reduce_mean(tf.square(scores - target_align)) + tf.reduce_mean(tf.square(out - target_out))
grads = tape.gradient(loss, mha.trainable_variables)
assert len(grads) == 8
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
