# summary: the autoencoder pretrains first; the encoder is frozen only afterwards, when the classifier is built and compiled, so pretraining changes every encoder and decoder weight and the classifier trains its head
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1699)
x = rng.normal(size=(192, 8)).astype("float32")
labels = (x[:, 0] + x[:, 1] > 0).astype("float32")[:, None]

encoder = tf.keras.Sequential([tf.keras.Input((8,)),
                               tf.keras.layers.Dense(6, activation="relu", name="enc_hidden"),
                               tf.keras.layers.Dense(3, name="enc_code")], name="encoder")
decoder = tf.keras.Sequential([tf.keras.Input((3,)),
                               tf.keras.layers.Dense(8, name="dec_out")], name="decoder")
inputs = tf.keras.Input((8,))
autoencoder = tf.keras.Model(inputs, decoder(encoder(inputs)), name="autoencoder")
autoencoder.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")

weights = autoencoder.trainable_weights
before = [w.numpy().copy() for w in weights]
autoencoder.fit(x, x, epochs=2, batch_size=32, verbose=0)
assert len(weights) == 6
assert all(np.any(b != w.numpy()) for b, w in zip(before, weights, strict=True))

encoder.trainable = False
classifier = tf.keras.Sequential([encoder, tf.keras.layers.Dense(1, activation="sigmoid",
                                                                 name="cls_out")], name="classifier")
classifier.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
head = classifier.trainable_weights
head_before = [w.numpy().copy() for w in head]
classifier.fit(x, labels, epochs=2, batch_size=32, verbose=0)
assert len(head) == 2
assert all(np.any(b != w.numpy()) for b, w in zip(head_before, head, strict=True))
