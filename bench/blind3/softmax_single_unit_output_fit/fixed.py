# summary: the single output unit uses a sigmoid (softmax needs one unit per class), so the score depends on the input and fit changes every weight
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(500)
word_counts = rng.poisson(2.0, size=(200, 12)).astype("float32")
is_spam = (word_counts[:, :3].sum(axis=1) > 6).astype("float32")[:, None]

model = tf.keras.Sequential([
    tf.keras.Input((12,)),
    tf.keras.layers.Dense(16, activation="relu", name="hidden"),
    tf.keras.layers.Dense(1, activation="sigmoid", name="score"),
], name="spam")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(word_counts, is_spam, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
