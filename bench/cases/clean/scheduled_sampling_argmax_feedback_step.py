# summary: scheduled sampling: at each decoding step a coin flip (tf.random.uniform < p) chooses the ground-truth token or the model's own tf.argmax prediction as the next input id; the loss reads the logits, eager
# source: https://arxiv.org/abs/1506.03099
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(30)
rng = np.random.default_rng(30)
tgt = tf.constant(rng.integers(1, 12, size=(6, 5)).astype("int32"))
emb = layers.Embedding(12, 8, name="emb")
cell = layers.GRUCell(16, name="cell")
proj = layers.Dense(12, name="proj")
opt = keras.optimizers.Adam(1e-3)
p_truth = 0.75
with tf.GradientTape() as tape:
    state = [tf.zeros((6, 16))]
    token = tf.ones((6,), tf.int32)
    losses = []
    for t in range(5):
        h, state = cell(emb(token), state)
        logits = proj(h)
        losses.append(tf.nn.sparse_softmax_cross_entropy_with_logits(tgt[:, t], logits))
        use_truth = tf.random.uniform((6,)) < p_truth
        token = tf.where(use_truth, tgt[:, t], tf.argmax(logits, axis=-1, output_type=tf.int32))
    loss = tf.reduce_mean(tf.stack(losses))
weights = emb.trainable_weights + cell.trainable_weights + proj.trainable_weights
grads = tape.gradient(loss, weights)
opt.apply_gradients(zip(grads, weights))
assert all(g is not None and float(tf.norm(tf.convert_to_tensor(g))) > 0 for g in grads)
