# source: https://github.com/keras-team/keras/issues/1699
# cause: sources-mismatch
# weights: encoder/enc_hidden/kernel, encoder/enc_hidden/bias, encoder/enc_code/kernel, encoder/enc_code/bias
# mode: fit
# summary: an autoencoder is meant to pretrain the encoder before a classifier reuses it frozen; the script freezes the encoder (for the classifier) before the autoencoder's own first fit, and Keras 3 reads the flag when that fit traces its step, so the pretraining only trains the decoder and the encoder's weights never change
# lint: no (the flag is read when Keras traces each model's step: only the order at run time shows it)
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

encoder.trainable = False  # expect: sources-mismatch primary
classifier = tf.keras.Sequential([encoder, tf.keras.layers.Dense(1, activation="sigmoid",
                                                                 name="cls_out")], name="classifier")
classifier.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="binary_crossentropy")

before = [w.numpy().copy() for w in encoder.weights]
autoencoder.fit(x, x, epochs=2, batch_size=32, verbose=0)  # accept: sources-mismatch
classifier.fit(x, labels, epochs=2, batch_size=32, verbose=0)
print("encoder changed by pretraining:",
      [bool(np.any(b != w.numpy())) for b, w in zip(before, encoder.weights)])
