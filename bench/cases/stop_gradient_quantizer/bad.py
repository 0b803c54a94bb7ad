# source: https://github.com/Justin-Tan/generative-compression/issues/27
# cause: stop-gradient|non-differentiable-op
# rule: TM401
# weights: codec/enc/kernel, codec/enc/bias
# mode: function
# summary: the quantiser wraps tf.round in tf.stop_gradient, so the encoder never learns
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(33)
images = rng.normal(size=(16, 8)).astype("float32")
encoder = tf.keras.layers.Dense(3, name="enc")
decoder = tf.keras.layers.Dense(8, name="dec")
codec = tf.keras.Sequential([tf.keras.layers.Input((8,)), encoder, decoder], name="codec")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(x):
    with tf.GradientTape() as tape:
        z = encoder(x)
        z_hat = tf.stop_gradient(tf.round(z))  # expect: stop-gradient|non-differentiable-op primary
        loss = tf.reduce_mean(tf.square(decoder(z_hat) - x))
    grads = tape.gradient(loss, codec.trainable_variables)
    return [g is None for g in grads]


print(train_step(images))
