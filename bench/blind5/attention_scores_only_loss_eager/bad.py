# source: https://github.com/tensorflow/tensorflow/issues/22775
# cause: not-connected
# weights: align_mha/value/kernel, align_mha/value/bias, align_mha/attention_output/kernel, align_mha/attention_output/bias
# mode: eager
# summary: an alignment model is supervised only on the attention map: the loop calls MultiHeadAttention with return_attention_scores=True, keeps the scores and drops the attention output; the value and output projections are not on the loss path, so their gradients are None while query and key train (the user wanted the output trained too, by a reconstruction term that was left out)
# lint: no (dropping one of two returned values is ordinary code)
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
    _, scores = mha(src, src, return_attention_scores=True)  # expect: not-connected primary
    loss = tf.reduce_mean(tf.square(scores - target_align))
grads = tape.gradient(loss, mha.trainable_variables)
print({v.path: g is None for v, g in zip(mha.trainable_variables, grads)})
