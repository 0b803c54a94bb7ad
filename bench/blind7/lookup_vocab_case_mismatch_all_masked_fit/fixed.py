# summary: the tickets are lower-cased like the vocabulary before the lookup, the tokens get their own indices, and every weight changes under fit
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

vocabulary = ["printer", "network", "password", "email", "screen", "login", "slow", "broken"]
rng = np.random.default_rng(5)
words = rng.choice(vocabulary, size=(48, 5))
tickets = tf.constant(np.char.lower(np.char.upper(words)))
y = np.isin(words, ["printer", "screen", "broken"]).any(axis=1).astype("float32")[:, None]

model = keras.Sequential([keras.Input((5,), dtype="string"),
                          keras.layers.StringLookup(vocabulary=vocabulary, name="word_lookup"),
                          keras.layers.Embedding(len(vocabulary) + 1, 6, mask_zero=True, name="token_embedding"),
                          keras.layers.LSTM(8, name="ticket_lstm"),
                          keras.layers.Dense(1, activation="sigmoid", name="ticket_topic")], name="ticket_model")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(tickets, y, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights}
assert len(changed) == 6 and all(changed.values()), changed
