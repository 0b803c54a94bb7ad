# summary: the document encoder runs inside every tape (no cache; the encoder is training, so its outputs change anyway), and every weight gets a gradient in every epoch
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


def encode_docs(batch):
    return doc_encoder(docs[batch], training=True)


for epoch in range(2):
    for batch in range(2):
        with tf.GradientTape() as tape:
            scores = tf.matmul(query_encoder(queries[batch], training=True), encode_docs(batch), transpose_b=True)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.range(16), logits=scores))
        grads = tape.gradient(loss, params)
        assert len(grads) == 6
        assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
        optimizer.apply_gradients(zip(grads, params))
