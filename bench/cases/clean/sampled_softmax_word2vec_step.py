# summary: word2vec skip-gram with tf.nn.sampled_softmax_loss: integer centre/context ids, an input embedding and an output weight/bias table, negative candidates sampled by the op, a @tf.function step
# source: https://www.tensorflow.org/api_docs/python/tf/nn/sampled_softmax_loss
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(33)
vocab, dim = 60, 8
center = tf.constant(rng.integers(0, vocab, size=(32,)).astype("int64"))
context = tf.constant(rng.integers(0, vocab, size=(32, 1)).astype("int64"))
emb = tf.Variable(tf.random.uniform((vocab, dim), -0.5, 0.5, seed=1), name="emb")
out_w = tf.Variable(tf.random.normal((vocab, dim), stddev=0.1, seed=2), name="out_w")
out_b = tf.Variable(tf.zeros((vocab,)), name="out_b")
opt = tf.keras.optimizers.SGD(0.5)
params = [emb, out_w, out_b]


@tf.function
def step(c, ctx):
    with tf.GradientTape() as tape:
        e = tf.nn.embedding_lookup(emb, c)
        loss = tf.reduce_mean(tf.nn.sampled_softmax_loss(out_w, out_b, ctx, e, num_sampled=10,
                                                         num_classes=vocab, seed=3))
    grads = tape.gradient(loss, params)
    opt.apply_gradients(zip(grads, params))
    return grads


grads = step(center, context)
assert all(g is not None and float(tf.norm(tf.convert_to_tensor(g))) > 0 for g in grads)
