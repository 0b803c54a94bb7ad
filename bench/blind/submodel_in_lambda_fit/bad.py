# source: https://github.com/keras-team/keras-applications/issues/168
# cause: sources-mismatch
# weights: encoder/enc/kernel, encoder/enc/bias
# mode: fit
# summary: a small encoder model is called inside a keras.layers.Lambda; the outer model does not own its weights, so fit trains only the head
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(168)
x = rng.normal(size=(64, 6)).astype("float32")
y = np.tanh(x[:, :2].sum(axis=1, keepdims=True)).astype("float32")
encoder = tf.keras.Sequential([tf.keras.Input((6,)),
                               tf.keras.layers.Dense(4, activation="relu", name="enc")],
                              name="encoder")
inputs = tf.keras.Input((6,))
features = tf.keras.layers.Lambda(lambda t: encoder(t), name="encode")(inputs)  # expect: sources-mismatch primary
outputs = tf.keras.layers.Dense(1, name="head")(features)
model = tf.keras.Model(inputs, outputs, name="wrapped")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in encoder.weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print("trainable:", [w.path for w in model.trainable_weights])
print("encoder changed:", [bool(np.any(b != w.numpy())) for b, w in zip(before, encoder.weights)])
