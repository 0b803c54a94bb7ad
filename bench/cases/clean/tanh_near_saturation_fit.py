# summary: a tanh layer whose bias starts at 3 sits on tanh's flat shoulder: the gradient is small but not zero, and every weight trains in fit
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(3)
x = rng.normal(size=(64, 4)).astype("float32")
y = rng.normal(size=(64, 1)).astype("float32")
model = tf.keras.Sequential([
    tf.keras.Input((4,)),
    tf.keras.layers.Dense(8, activation="tanh", name="squash",
                          bias_initializer=tf.keras.initializers.Constant(3.0)),
    tf.keras.layers.Dense(1, name="out"),
], name="shoulder")
model.compile(optimizer="sgd", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
