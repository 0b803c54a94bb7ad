# source: https://github.com/pytorch/pytorch/issues/4649
# cause: sources-mismatch
# rule: -
# weights: tag_model/tag_embedding/embeddings
# mode: eager
# summary: a tagger only uses the first 12 of its 20 embedding rows, so the eager loop asks for the gradient with respect to embedding.embeddings[:12] to save work; the slice is a new tensor computed outside the tape, not the variable the loss read, so its gradient is None (the dense head, asked directly, trains)
# lint: yes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(4649)
tokens = rng.integers(0, 12, size=(16, 5)).astype("int32")
tags = rng.integers(0, 3, size=(16,)).astype("int32")

model = keras.Sequential([keras.Input((5,), dtype="int32"),
                          keras.layers.Embedding(20, 8, name="tag_embedding"),
                          keras.layers.GlobalAveragePooling1D(),
                          keras.layers.Dense(3, name="tag_logits")], name="tag_model")
embedding = model.get_layer("tag_embedding")
head = model.get_layer("tag_logits")
optimizer = keras.optimizers.SGD(0.1)

with tf.GradientTape() as tape:
    logits = model(tokens, training=True)
    loss = tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(tags, logits, from_logits=True))
sources = [embedding.embeddings[:12]] + head.trainable_variables  # expect: sources-mismatch primary
grads = tape.gradient(loss, sources)
print([g is None for g in grads])
