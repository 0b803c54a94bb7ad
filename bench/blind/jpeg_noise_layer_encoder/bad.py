# source: https://github.com/ando-khachatryan/HiDDeN/issues/12
# cause: non-differentiable-op|integer-dtype
# weights: embed/kernel, embed/bias
# mode: function
# summary: a watermarking step passes the encoded images through real JPEG compression (tf.image.adjust_jpeg_quality) as its noise layer; the codec is not differentiable, so the encoder gets None while the decoder trains
# lint: yes
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
        noised = tf.stack([tf.image.adjust_jpeg_quality(stego[i], 50)  # expect: non-differentiable-op|integer-dtype primary
                           for i in range(4)])
        loss = bce(message, decoder(noised, training=True))
    variables = encoder.trainable_variables + decoder.trainable_variables
    return tape.gradient(loss, variables)


grads = train_step(cover, bits)
names = [w.path for w in encoder.trainable_variables + decoder.trainable_variables]
print({n: g is not None for n, g in zip(names, grads)})
