# source: https://github.com/tensorflow/tensorflow/issues/35203
# cause: non-differentiable-op
# weights: qa_enc/kernel, qa_enc/bias
# mode: eager
# summary: a TF1 recipe for a straight-through quantiser wraps tf.round in tf.compat.v1.get_default_graph().gradient_override_map({"Round": "Identity"}); in TF2 the tape ignores the override map, Round keeps its registered None gradient, and the encoder in front of the quantiser gets None while the decoder trains
# lint: yes
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
    with tf.compat.v1.get_default_graph().gradient_override_map({"Round": "Identity"}):
        return tf.round(code * levels) / levels  # expect: non-differentiable-op primary


with tf.GradientTape() as tape:
    recon = decoder(quantize(encoder(x)))
    loss = tf.reduce_mean(tf.square(recon - x))
grads = tape.gradient(loss, model.trainable_variables)
print({v.path: g is None for v, g in zip(model.trainable_variables, grads)})
