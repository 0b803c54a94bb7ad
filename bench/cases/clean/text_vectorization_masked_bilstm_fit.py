# source: https://keras.io/examples/nlp/text_classification_from_scratch/
# summary: a sentiment classifier on raw strings: TextVectorization adapted on the texts, applied in a tf.data map (integer ids), an Embedding with mask_zero=True into a Bidirectional LSTM, fit with validation_data and EarlyStopping
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
texts = np.array(["good movie", "bad movie", "great film really good", "awful", "not bad at all",
                  "terrible plot and acting"] * 4)
labels = np.array([1, 0, 1, 0, 1, 0] * 4)
vectorize = keras.layers.TextVectorization(max_tokens=40, output_sequence_length=6)
vectorize.adapt(texts)
ds = tf.data.Dataset.from_tensor_slices((texts, labels)).batch(8).map(lambda t, y: (vectorize(t), y))
model = keras.Sequential([keras.Input((6,), dtype="int64"),
                          keras.layers.Embedding(40, 8, mask_zero=True, name="emb"),
                          keras.layers.Bidirectional(keras.layers.LSTM(8), name="bilstm"),
                          keras.layers.Dense(1, activation="sigmoid", name="out")])
model.compile("adam", "binary_crossentropy", metrics=["accuracy"])
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(ds, validation_data=ds.take(1), epochs=2, verbose=0,
          callbacks=[keras.callbacks.EarlyStopping(patience=1)])
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
