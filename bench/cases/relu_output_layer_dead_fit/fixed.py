# summary: a linear output layer for a regression target
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(31)
x = rng.normal(size=(64, 4)).astype("float32")
y = rng.normal(size=(64, 1)).astype("float32")
low = tf.keras.initializers.Constant(-20.0)
model = tf.keras.Sequential([
    tf.keras.layers.Input((4,)),
    tf.keras.layers.Dense(8, activation="tanh", name="h"),
    tf.keras.layers.Dense(1, bias_initializer=low, name="out"),
], name="regressor")
model.compile(optimizer="sgd", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
