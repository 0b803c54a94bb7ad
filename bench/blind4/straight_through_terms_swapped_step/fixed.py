# summary: the straight-through estimator is written z + tf.stop_gradient(q - z): the forward value is the rounded code and the backward pass is the identity into z, so the encoder and the decoder both get gradients
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
        code = z + tf.stop_gradient(q - z)
        loss = tf.reduce_mean(tf.square(decoder(code, training=True) - batch))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(signals)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
