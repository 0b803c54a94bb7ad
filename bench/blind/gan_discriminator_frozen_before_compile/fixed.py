# summary: the discriminator is made trainable again around its own train_on_batch, so each step trains its own part
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
discriminator.trainable = False
combined = tf.keras.Sequential([generator, discriminator], name="combined")
combined.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss=bce)

before = [w.numpy().copy() for w in generator.weights + discriminator.weights]
for _ in range(4):
    noise = rng.normal(size=(8, 3)).astype("float32")
    real = rng.normal(1.0, 0.2, size=(8, 5)).astype("float32")
    fake = generator.predict(noise, verbose=0)
    discriminator.trainable = True
    discriminator.train_on_batch(np.concatenate([real, fake]),
                                 np.concatenate([np.ones((8, 1)), np.zeros((8, 1))]))
    discriminator.trainable = False
    combined.train_on_batch(noise, np.ones((8, 1)))
after = generator.weights + discriminator.weights
assert all(np.any(b != w.numpy()) for b, w in zip(before, after, strict=True))
