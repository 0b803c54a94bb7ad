# source: https://github.com/eriklindernoren/Keras-GAN/issues/91
# cause: sources-mismatch
# weights: discriminator/critic/kernel, discriminator/critic/bias
# mode: fit
# summary: the Keras 2 GAN recipe: the discriminator is frozen for the combined model and never unfrozen; Keras 3 reads the flag when its own train_on_batch traces, so the discriminator never trains
# lint: no (the flag is read when Keras traces the step: only the order at run time shows it)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(91)
generator = tf.keras.Sequential([tf.keras.Input((3,)),
                                 tf.keras.layers.Dense(5, activation="tanh", name="gen_out")],
                                name="generator")
discriminator = tf.keras.Sequential([tf.keras.Input((5,)),
                                     tf.keras.layers.Dense(1, name="critic")],
                                    name="discriminator")
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
discriminator.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss=bce)
discriminator.trainable = False  # expect: sources-mismatch primary
combined = tf.keras.Sequential([generator, discriminator], name="combined")
combined.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss=bce)

before = [w.numpy().copy() for w in discriminator.weights]
for _ in range(4):
    noise = rng.normal(size=(8, 3)).astype("float32")
    real = rng.normal(1.0, 0.2, size=(8, 5)).astype("float32")
    fake = generator.predict(noise, verbose=0)
    discriminator.train_on_batch(np.concatenate([real, fake]),  # accept: sources-mismatch
                                 np.concatenate([np.ones((8, 1)), np.zeros((8, 1))]))
    combined.train_on_batch(noise, np.ones((8, 1)))
print("discriminator changed:",
      [bool(np.any(b != w.numpy())) for b, w in zip(before, discriminator.weights)])
