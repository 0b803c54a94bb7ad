# summary: the tied projection is the plain transpose of the embedding matrix, so the output layer's gradient flows into the shared embedding as well
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2024)
tokens = rng.integers(0, 20, size=(16, 6)).astype("int32")
next_tokens = rng.integers(0, 20, size=(16,)).astype("int32")

model = keras.Sequential([keras.Input((6,), dtype="int32"),
                          keras.layers.Embedding(20, 8, name="tied_embedding"),
                          keras.layers.GlobalAveragePooling1D(),
                          keras.layers.Dense(8, activation="tanh", name="tied_mixer")], name="tied_lm")
embedding = model.get_layer("tied_embedding")


@tf.function
def train_step(ids, targets):
    with tf.GradientTape() as tape:
        hidden = model(ids, training=True)
        projection = tf.transpose(embedding.embeddings)
        logits = tf.matmul(hidden, projection)
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(targets, logits, from_logits=True))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(tokens, next_tokens)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_sum(tf.abs(tf.convert_to_tensor(g)))) > 0 for g in grads)
