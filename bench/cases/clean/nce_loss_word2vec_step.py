# source: https://www.tensorflow.org/api_docs/python/tf/nn/nce_loss
# summary: word2vec skip-gram trained with tf.nn.nce_loss: integer centre words looked up with tf.nn.embedding_lookup, integer context labels (int64), negative candidates sampled inside nce_loss, in a tf.function step
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
VOCAB, DIM = 50, 8
embeddings = tf.Variable(tf.random.uniform((VOCAB, DIM), -1, 1), name="embeddings")
nce_w = tf.Variable(tf.random.truncated_normal((VOCAB, DIM), stddev=0.3), name="nce_w")
nce_b = tf.Variable(tf.zeros(VOCAB), name="nce_b")
opt = keras.optimizers.SGD(1.0)
rng = np.random.default_rng(39)
centers = tf.constant(rng.integers(0, VOCAB, 32))
contexts = tf.constant(rng.integers(0, VOCAB, (32, 1)), tf.int64)


@tf.function
def step():
    with tf.GradientTape() as tape:
        embed = tf.nn.embedding_lookup(embeddings, centers)
        loss = tf.reduce_mean(tf.nn.nce_loss(nce_w, nce_b, contexts, embed, num_sampled=8,
                                             num_classes=VOCAB))
    variables = [embeddings, nce_w, nce_b]
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))
    return grads


grads = step()
assert all(g is not None and float(tf.reduce_max(tf.abs(tf.convert_to_tensor(g)))) > 0 for g in grads)
