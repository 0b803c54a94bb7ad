# summary: straight-through quantiser: z + stop_gradient(round(z) - z)
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
        z_hat = z + tf.stop_gradient(tf.round(z) - z)
        loss = tf.reduce_mean(tf.square(decoder(z_hat) - x))
    grads = tape.gradient(loss, codec.trainable_variables)
    optimizer.apply_gradients(zip(grads, codec.trainable_variables, strict=False))
    return grads


grads = train_step(images)
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
