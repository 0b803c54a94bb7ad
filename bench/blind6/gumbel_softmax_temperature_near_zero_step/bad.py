# source: https://github.com/ericjang/gumbel-softmax/issues/2
# cause: zero-at-runtime
# weights: code_encoder/code_logits/kernel, code_encoder/code_logits/bias
# mode: function
# summary: a discrete autoencoder samples its code with a relaxed Gumbel-softmax, softmax((logits + g) / tau), and sets tau = 1e-20 to make the sample "exactly discrete" from the start; every relaxed sample is an exact one-hot in float32, the softmax's gradient there is exactly 0, and the encoder gets zero gradients (only the decoder trains)
# lint: no (the temperature is a value; a softmax of scaled logits is valid code)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2)
x = rng.normal(size=(32, 6)).astype("float32")
tau = 1e-20

encoder = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, name="code_logits")], name="code_encoder")
decoder = keras.Sequential([keras.Input((8,)), keras.layers.Dense(6, name="recon")], name="code_decoder")
params = encoder.trainable_variables + decoder.trainable_variables


@tf.function
def train_step(features):
    with tf.GradientTape() as tape:
        logits = encoder(features, training=True)
        u = tf.random.stateless_uniform(tf.shape(logits), seed=[1, 2], minval=1e-6, maxval=1.0)
        gumbel = -tf.math.log(-tf.math.log(u))
        code = tf.nn.softmax((logits + gumbel) / tau)  # expect: zero-at-runtime primary
        loss = tf.reduce_mean(tf.square(decoder(code, training=True) - features))
    return tape.gradient(loss, params)


grads = train_step(x)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(params, grads)})
