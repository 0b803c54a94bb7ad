# source: https://github.com/keras-team/keras/issues/500
# cause: zero-at-runtime
# weights: spam/hidden/kernel, spam/hidden/bias, spam/score/kernel, spam/score/bias
# mode: fit
# summary: a binary spam classifier ends in Dense(1, activation="softmax"); a softmax over a single unit is exactly 1 for every input, so the output is a constant, every gradient is exactly zero and fit never changes a weight
# lint: no (zero at run time: only the output width shows the softmax is over one unit)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(500)
word_counts = rng.poisson(2.0, size=(200, 12)).astype("float32")
is_spam = (word_counts[:, :3].sum(axis=1) > 6).astype("float32")[:, None]

model = tf.keras.Sequential([
    tf.keras.Input((12,)),
    tf.keras.layers.Dense(16, activation="relu", name="hidden"),
    tf.keras.layers.Dense(1, activation="softmax", name="score"),  # expect: zero-at-runtime primary
], name="spam")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
history = model.fit(word_counts, is_spam, epochs=2, batch_size=32, verbose=0)
print("loss:", history.history["loss"])
print("changed:", [bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)])
