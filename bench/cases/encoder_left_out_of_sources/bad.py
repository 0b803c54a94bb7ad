# source: https://github.com/soumik12345/tf2_gans/issues/14
# cause: sources-mismatch
# weights: encoder/e1/kernel, encoder/e1/bias, encoder/mu/kernel, encoder/mu/bias
# mode: function
# summary: GauGAN-style step: the encoder feeds the generator but is in no gradient call's sources
# lint: no (sources-mismatch: nothing cuts the encoder; a frozen one is fine)
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
    grads = tape.gradient(loss, generator.trainable_variables)  # expect: sources-mismatch primary
    optimizer.apply_gradients(zip(grads, generator.trainable_variables, strict=False))
    return loss


before = [w.numpy().copy() for w in encoder.trainable_weights]
print(float(train_step(images)))
print("encoder changed:", [bool(np.any(b != w.numpy()))
                           for b, w in zip(before, encoder.trainable_weights, strict=False)])
