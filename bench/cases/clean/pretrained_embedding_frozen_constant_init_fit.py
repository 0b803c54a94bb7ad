# source: https://keras.io/examples/nlp/pretrained_word_embeddings/
# summary: a text classifier whose Embedding is initialised from a pretrained matrix (keras.initializers.Constant) and frozen with trainable=False, integer token ids in, Conv1D and pooling, compiled and fit
import numpy as np
import keras

keras.utils.set_random_seed(0)
VOCAB, DIM, LEN = 40, 6, 10
matrix = np.random.default_rng(10).normal(size=(VOCAB, DIM)).astype("float32")
inp = keras.Input((LEN,), dtype="int64")
h = keras.layers.Embedding(VOCAB, DIM, embeddings_initializer=keras.initializers.Constant(matrix),
                           trainable=False, name="glove")(inp)
h = keras.layers.Conv1D(8, 3, activation="relu", name="conv")(h)
h = keras.layers.GlobalMaxPooling1D()(h)
out = keras.layers.Dense(3, activation="softmax", name="out")(h)
model = keras.Model(inp, out)
model.compile("rmsprop", "sparse_categorical_crossentropy", metrics=["acc"])
rng = np.random.default_rng(11)
x, y = rng.integers(0, VOCAB, (32, LEN)), rng.integers(0, 3, 32)
before = {w.path: w.numpy().copy() for w in model.weights}
model.fit(x, y, epochs=1, batch_size=8, verbose=0)
assert np.allclose(before[model.get_layer("glove").embeddings.path],
                   model.get_layer("glove").embeddings.numpy())
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
