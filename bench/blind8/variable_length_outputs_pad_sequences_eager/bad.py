# source: https://github.com/keras-team/keras/pull/248
# cause: host-round-trip
# rule: -
# weights: len_model/len_hidden/kernel, len_model/len_hidden/bias, len_model/len_out/kernel, len_model/len_out/bias
# mode: eager
# summary: a duration model emits one value per frame, the eager loop cuts each example's frames to its true length and batches them again with keras.utils.pad_sequences(..., dtype="float32") before the masked loss; pad_sequences builds a NumPy array, the values leave the tape, and every gradient is None
# lint: no (pad_sequences is the usual padding helper for data; applying it to predictions is the cut)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(248)
frames = rng.normal(size=(6, 8, 3)).astype("float32")
lengths = [5, 8, 3, 6, 4, 7]
targets = rng.normal(size=(6, 8)).astype("float32")
mask = np.array([[1.0 if t < n else 0.0 for t in range(8)] for n in lengths], dtype="float32")

model = keras.Sequential([keras.Input((8, 3)),
                          keras.layers.Dense(8, activation="tanh", name="len_hidden"),
                          keras.layers.Dense(1, name="len_out")], name="len_model")

with tf.GradientTape() as tape:
    per_frame = model(frames, training=True)[:, :, 0]
    trimmed = [per_frame[i, :n] for i, n in enumerate(lengths)]
    padded = keras.utils.pad_sequences(trimmed, maxlen=8, dtype="float32", padding="post")  # expect: host-round-trip primary
    loss = tf.reduce_sum(tf.square(padded - targets) * mask) / tf.reduce_sum(mask)
grads = tape.gradient(loss, model.trainable_variables)
print([g is None for g in grads])
