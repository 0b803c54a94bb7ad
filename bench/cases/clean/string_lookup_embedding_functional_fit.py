# source: https://keras.io/examples/structured_data/structured_data_classification_from_scratch/
# summary: categorical string features turned into integer ids by a StringLookup layer inside the model, then an Embedding, concatenated with a numeric feature; compiled and fit on a tf.data dataset of dict inputs
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
colors = np.array(["red", "green", "blue", "green", "red", "violet"] * 6)
size = np.random.default_rng(17).random((36, 1)).astype("float32")
y = np.random.default_rng(18).integers(0, 2, (36, 1))
lookup = keras.layers.StringLookup(vocabulary=["red", "green", "blue"], name="lookup")
color_in = keras.Input((1,), dtype="string", name="color")
size_in = keras.Input((1,), name="size")
ids = lookup(color_in)
emb = keras.layers.Flatten()(keras.layers.Embedding(lookup.vocabulary_size(), 3, name="color_emb")(ids))
h = keras.layers.Concatenate()([emb, size_in])
out = keras.layers.Dense(1, activation="sigmoid", name="out")(keras.layers.Dense(6, activation="relu", name="h")(h))
model = keras.Model({"color": color_in, "size": size_in}, out)
model.compile("adam", "binary_crossentropy", metrics=["accuracy"])
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
ds = tf.data.Dataset.from_tensor_slices(({"color": colors[:, None], "size": size}, y)).batch(6)
model.fit(ds, epochs=1, verbose=0)
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
