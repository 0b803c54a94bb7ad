# summary: the relaxed sample uses tau = 0.5 (the range the Gumbel-softmax authors recommend), so the softmax is not saturated and the encoder trains along with the decoder
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2)
x = rng.normal(size=(32, 6)).astype("float32")
tau = 0.5

encoder = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, name="code_logits")], name="code_encoder")
decoder = keras.Sequential([keras.Input((8,)), keras.layers.Dense(6, name="recon")], name="code_decoder")
params = encoder.trainable_variables + decoder.trainable_variables


@tf.function
def train_step(features):
    with tf.GradientTape() as tape:
        logits = encoder(features, training=True)
        u = tf.random.stateless_uniform(tf.shape(logits), seed=[1, 2], minval=1e-6, maxval=1.0)
        gumbel = -tf.math.log(-tf.math.log(u))
        code = tf.nn.softmax((logits + gumbel) / tau)
        loss = tf.reduce_mean(tf.square(decoder(code, training=True) - features))
    return tape.gradient(loss, params)


grads = train_step(x)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
