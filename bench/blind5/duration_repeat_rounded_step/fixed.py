# summary: the FastSpeech recipe: the regulator repeats by the ground-truth durations and the duration predictor is trained by its own loss against them, so every weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1)
phonemes = rng.normal(size=(6, 4)).astype("float32")
mel = rng.normal(size=(24, 5)).astype("float32")
true_dur = np.array([3, 5, 4, 2, 6, 4], dtype="int32")

encoder = tf.keras.layers.Dense(8, activation="tanh", name="enc")
dur_pred = tf.keras.layers.Dense(1, activation="softplus", name="dur_pred")
decoder = tf.keras.layers.Dense(5, name="dec")
inputs = tf.keras.Input((4,))
h_in = encoder(inputs)
model = tf.keras.Model(inputs, [decoder(h_in), dur_pred(h_in)], name="tts")


@tf.function
def train_step(ph, target, dur):
    with tf.GradientTape() as tape:
        h = encoder(ph)
        frames = tf.repeat(h, dur, axis=0)
        mel_loss = tf.reduce_mean(tf.square(decoder(frames) - target))
        dur_loss = tf.reduce_mean(tf.square(dur_pred(h)[:, 0] - tf.cast(dur, tf.float32)))
        loss = mel_loss + dur_loss
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(phonemes, mel, true_dur)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
