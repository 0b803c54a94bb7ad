# source: https://github.com/microsoft/LQ-Nets/issues/9
# cause: stop-gradient|non-differentiable-op
# weights: code_encoder/enc_hidden/kernel, code_encoder/enc_hidden/bias, code_encoder/enc_code/kernel, code_encoder/enc_code/bias
# mode: function
# summary: a learned-compression autoencoder rounds its code with a straight-through estimator written with the terms swapped, q + tf.stop_gradient(z - q) instead of z + tf.stop_gradient(q - z); the forward value is the unrounded code and the backward pass goes through tf.round, which has no gradient, so the decoder trains and the encoder gets None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(9)
signals = rng.normal(size=(32, 8)).astype("float32")

encoder = tf.keras.Sequential([tf.keras.Input((8,)),
                               tf.keras.layers.Dense(6, activation="relu", name="enc_hidden"),
                               tf.keras.layers.Dense(3, activation="tanh", name="enc_code")],
                              name="code_encoder")
decoder = tf.keras.Sequential([tf.keras.Input((3,)),
                               tf.keras.layers.Dense(8, name="dec_out")], name="code_decoder")
sources = encoder.trainable_variables + decoder.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(batch):
    with tf.GradientTape() as tape:
        z = 4.0 * encoder(batch, training=True)
        q = tf.round(z)
        code = q + tf.stop_gradient(z - q)  # expect: stop-gradient|non-differentiable-op primary
        loss = tf.reduce_mean(tf.square(decoder(code, training=True) - batch))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(signals)
print("grads are None:", [g is None for g in grads])
