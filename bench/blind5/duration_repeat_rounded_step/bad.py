# source: https://github.com/Joshua-1995/LearnableUpsamplingLayer-Pytorch/issues/1
# cause: integer-dtype|non-differentiable-op
# weights: dur_pred/kernel, dur_pred/bias
# mode: function
# summary: a FastSpeech-style length regulator repeats each phoneme encoding by the duration the model predicts (rounded and cast to int32 for tf.repeat) and trains only on the spectrogram loss; the integer repeat counts carry no gradient, so the duration predictor gets None while the encoder and decoder train
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1)
phonemes = rng.normal(size=(6, 4)).astype("float32")
mel = rng.normal(size=(24, 5)).astype("float32")

encoder = tf.keras.layers.Dense(8, activation="tanh", name="enc")
dur_pred = tf.keras.layers.Dense(1, activation="softplus", name="dur_pred")
decoder = tf.keras.layers.Dense(5, name="dec")
inputs = tf.keras.Input((4,))
h_in = encoder(inputs)
model = tf.keras.Model(inputs, [decoder(h_in), dur_pred(h_in)], name="tts")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(ph, target):
    with tf.GradientTape() as tape:
        h = encoder(ph)
        durations = tf.cast(tf.round(4.0 * dur_pred(h)[:, 0]), tf.int32) + 1  # expect: integer-dtype|non-differentiable-op primary
        frames = tf.repeat(h, durations, axis=0)
        n = tf.minimum(tf.shape(frames)[0], tf.shape(target)[0])
        loss = tf.reduce_mean(tf.square(decoder(frames[:n]) - target[:n]))
    grads = tape.gradient(loss, model.trainable_variables)
    return grads


grads = train_step(phonemes, mel)
print({v.path: g is None for v, g in zip(model.trainable_variables, grads)})
