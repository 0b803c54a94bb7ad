# summary: the gradient is asked for the embedding variable itself (an IndexedSlices over the rows the batch used), so every variable gets a gradient
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
sources = [embedding.embeddings] + head.trainable_variables
grads = tape.gradient(loss, sources)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_sum(tf.abs(tf.convert_to_tensor(g)))) > 0 for g in grads)
