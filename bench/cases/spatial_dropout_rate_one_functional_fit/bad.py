# source: https://github.com/keras-team/keras/issues/9141
# cause: not-connected|zero-at-runtime
# rule: TM104
# weights: tok_embed/embeddings, tok_conv/kernel, tok_conv/bias
# mode: fit
# summary: a functional text classifier sets its SpatialDropout1D rate to 1.0 ("drop nothing" in the author's mind); Keras 3 drops every channel when training, so the layers before it get no gradient and fit warns that gradients do not exist for them
# lint: no (a rate is a run-time value; nothing in the source says 1.0 is not meant)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(9141)
tokens = rng.integers(1, 50, size=(80, 12)).astype("int32")
labels = (tokens[:, :4].mean(axis=1) > 25).astype("float32")[:, None]
channel_drop = 1.0

words = keras.Input((12,), dtype="int32")
vectors = keras.layers.Embedding(50, 8, name="tok_embed")(words)
mixed = keras.layers.Conv1D(8, 3, padding="same", activation="relu", name="tok_conv")(vectors)
kept = keras.layers.SpatialDropout1D(channel_drop, name="tok_drop")(mixed)  # expect: not-connected|zero-at-runtime primary
pooled = keras.layers.GlobalAveragePooling1D()(kept)
score = keras.layers.Dense(1, activation="sigmoid", name="tok_out")(pooled)
model = keras.Model(words, score, name="tagger")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
model.fit(tokens, labels, epochs=1, batch_size=40, verbose=0)
