# source: https://keras.io/api/layers/preprocessing_layers/categorical/string_lookup/
# cause: zero-at-runtime
# weights: ticket_model/token_embedding/embeddings, ticket_model/ticket_lstm/lstm_cell/kernel, ticket_model/ticket_lstm/lstm_cell/recurrent_kernel, ticket_model/ticket_lstm/lstm_cell/bias, ticket_model/ticket_topic/kernel
# mode: fit
# summary: a ticket classifier maps words with a StringLookup whose vocabulary was built lower-case while the tickets arrive upper-case; every token is out of vocabulary, StringLookup (no mask token) gives OOV index 0, Embedding(mask_zero=True) masks every step, the LSTM returns its zero initial state, and only the output bias changes under fit
# lint: no (the vocabulary and the data disagree in their values, not in the code)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

vocabulary = ["printer", "network", "password", "email", "screen", "login", "slow", "broken"]
rng = np.random.default_rng(5)
words = rng.choice(vocabulary, size=(48, 5))
tickets = tf.constant(np.char.upper(words))  # expect: zero-at-runtime primary
y = np.isin(words, ["printer", "screen", "broken"]).any(axis=1).astype("float32")[:, None]

model = keras.Sequential([keras.Input((5,), dtype="string"),
                          keras.layers.StringLookup(vocabulary=vocabulary, name="word_lookup"),
                          keras.layers.Embedding(len(vocabulary) + 1, 6, mask_zero=True, name="token_embedding"),
                          keras.layers.LSTM(8, name="ticket_lstm"),
                          keras.layers.Dense(1, activation="sigmoid", name="ticket_topic")], name="ticket_model")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(tickets, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights})
