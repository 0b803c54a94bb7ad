# summary: the encoder is called as a layer of the functional model, so its weights are the model's
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
features = encoder(inputs)
outputs = tf.keras.layers.Dense(1, name="head")(features)
model = tf.keras.Model(inputs, outputs, name="wrapped")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
