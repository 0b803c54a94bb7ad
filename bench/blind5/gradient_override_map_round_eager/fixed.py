# summary: the straight-through quantiser is written the TF2 way, code + stop_gradient(round(code) - code), so the encoder and decoder both get gradients
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(35203)
x = rng.uniform(size=(32, 8)).astype("float32")

encoder = tf.keras.layers.Dense(4, activation="sigmoid", name="qa_enc")
decoder = tf.keras.layers.Dense(8, name="qa_dec")
inputs = tf.keras.Input((8,))
model = tf.keras.Model(inputs, decoder(encoder(inputs)), name="quant_ae")


def quantize(code, levels=8.0):
    hard = tf.round(code * levels) / levels
    return code + tf.stop_gradient(hard - code)


with tf.GradientTape() as tape:
    recon = decoder(quantize(encoder(x)))
    loss = tf.reduce_mean(tf.square(recon - x))
grads = tape.gradient(loss, model.trainable_variables)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
