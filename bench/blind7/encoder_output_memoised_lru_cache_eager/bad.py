# source: https://github.com/sifubro/tensorflow
# cause: outside-tape
# weights: doc_encoder/doc_hidden/kernel, doc_encoder/doc_hidden/bias, doc_encoder/doc_code/kernel, doc_encoder/doc_code/bias
# mode: eager
# summary: to save time a retrieval loop memoises the document encoder with functools.lru_cache keyed by the batch index; from the second epoch on the cached encodings are tensors computed under an earlier, finished tape, so the encoder's gradients are None while the query tower keeps training
# lint: no (a cache decorator is ordinary Python; the stale tensor is a runtime fact)
import functools

import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(9)
docs = rng.normal(size=(2, 16, 6)).astype("float32")
queries = rng.normal(size=(2, 16, 5)).astype("float32")

doc_encoder = keras.Sequential([keras.Input((6,)),
                                keras.layers.Dense(8, activation="tanh", name="doc_hidden"),
                                keras.layers.Dense(4, name="doc_code")], name="doc_encoder")
query_encoder = keras.Sequential([keras.Input((5,)), keras.layers.Dense(4, name="query_code")], name="query_encoder")
params = doc_encoder.trainable_variables + query_encoder.trainable_variables
optimizer = keras.optimizers.SGD(0.1)


@functools.lru_cache(maxsize=None)  # expect: outside-tape primary
def encode_docs(batch):
    return doc_encoder(docs[batch], training=True)


for epoch in range(2):
    for batch in range(2):
        with tf.GradientTape() as tape:
            scores = tf.matmul(query_encoder(queries[batch], training=True), encode_docs(batch), transpose_b=True)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.range(16), logits=scores))
        grads = tape.gradient(loss, params)
        if epoch == 1:
            print({v.path: None if g is None else float(tf.reduce_sum(tf.abs(g))) for v, g in zip(params, grads)})
        optimizer.apply_gradients([(g, v) for g, v in zip(grads, params) if g is not None])
