# summary: the trimmed predictions are padded back with tf.pad inside the tape, so the masked loss reaches every weight
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
    padded = tf.stack([tf.pad(row, [[0, 8 - n]]) for row, n in zip(trimmed, lengths)])
    loss = tf.reduce_sum(tf.square(padded - targets) * mask) / tf.reduce_sum(mask)
grads = tape.gradient(loss, model.trainable_variables)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
