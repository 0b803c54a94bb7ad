# summary: a tf.function VAE step takes its KL weight as a Python float argument ramped by the epoch loop: TensorFlow traces the step again for each new value, so the 0.0 of the first trace is not frozen and the KL term counts from the second epoch on
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(5)

rng = np.random.default_rng(15)
data = rng.random((32, 6)).astype("float32")
encoder = tf.keras.layers.Dense(4, name="enc")
decoder = tf.keras.layers.Dense(6, name="dec")
encoder.build((None, 6))
decoder.build((None, 2))
optimizer = tf.keras.optimizers.Adam(1e-2)
weights = encoder.trainable_variables + decoder.trainable_variables


@tf.function
def train_step(batch, kl_weight):
    with tf.GradientTape() as tape:
        mean, log_var = tf.split(encoder(batch), 2, axis=-1)
        z = mean + tf.exp(0.5 * log_var) * tf.random.normal(tf.shape(mean), seed=2)
        kl = -0.5 * tf.reduce_mean(1.0 + log_var - tf.square(mean) - tf.exp(log_var))
        loss = tf.reduce_mean(tf.square(decoder(z) - batch)) + kl_weight * kl
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return grads


before = [w.numpy().copy() for w in weights]
for epoch in range(3):
    kl_weight = epoch / 2
    grads = train_step(data, kl_weight)
assert all(np.any(b != w.numpy()) for b, w in zip(before, weights))
