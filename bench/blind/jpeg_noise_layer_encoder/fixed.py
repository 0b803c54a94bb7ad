# summary: the JPEG noise is applied with a straight-through estimator (x + stop_gradient(jpeg(x) - x)), so the encoder gets the decoder's gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(12)
cover = tf.constant(rng.uniform(0.2, 0.8, size=(4, 8, 8, 3)).astype("float32"))
bits = tf.constant(rng.integers(0, 2, size=(4, 6)).astype("float32"))
encoder_in = tf.keras.Input((8, 8, 3))
message_in = tf.keras.Input((6,))
residual = tf.keras.layers.Dense(192, activation="tanh", name="embed")(message_in)
residual = tf.keras.layers.Reshape((8, 8, 3))(residual)
marked = tf.keras.layers.Lambda(lambda t: tf.clip_by_value(t[0] + 0.05 * t[1], 0.0, 1.0))(
    [encoder_in, residual])
encoder = tf.keras.Model([encoder_in, message_in], marked, name="encoder")
decoder = tf.keras.Sequential([tf.keras.Input((8, 8, 3)), tf.keras.layers.Flatten(),
                               tf.keras.layers.Dense(6, name="bits")], name="decoder")
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)


@tf.function
def train_step(images, message):
    with tf.GradientTape() as tape:
        stego = encoder([images, message], training=True)
        jpeg = tf.stack([tf.image.adjust_jpeg_quality(stego[i], 50) for i in range(4)])
        noised = stego + tf.stop_gradient(jpeg - stego)
        loss = bce(message, decoder(noised, training=True))
    variables = encoder.trainable_variables + decoder.trainable_variables
    return tape.gradient(loss, variables)


grads = train_step(cover, bits)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
