# summary: the encoder's variables are among the sources
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(41)
images = rng.normal(size=(16, 8)).astype("float32")
encoder = tf.keras.Sequential([tf.keras.layers.Input((8,)),
                               tf.keras.layers.Dense(6, activation="relu", name="e1"),
                               tf.keras.layers.Dense(2, name="mu")], name="encoder")
generator = tf.keras.Sequential([tf.keras.layers.Input((2,)),
                                 tf.keras.layers.Dense(8, name="g1")], name="generator")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(x):
    with tf.GradientTape() as tape:
        latent = encoder(x)
        loss = tf.reduce_mean(tf.square(generator(latent) - x))
    variables = encoder.trainable_variables + generator.trainable_variables
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables, strict=False))
    return loss


before = [w.numpy().copy() for w in encoder.trainable_weights + generator.trainable_weights]
print(float(train_step(images)))
after = encoder.trainable_weights + generator.trainable_weights
assert all(np.any(b != w.numpy()) for b, w in zip(before, after, strict=False))
