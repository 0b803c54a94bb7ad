# source: https://stackoverflow.com/questions/52800582/why-do-i-fail-to-predict-y-x4-with-keras-y-x3-works
# cause: zero-at-runtime
# weights: census/hidden/kernel, census/hidden/bias
# mode: fit
# summary: raw population counts (tens of thousands) go straight into a tanh layer; every pre-activation is far past the saturation point, tanh's derivative is exactly zero in float32, and fit never changes the hidden layer
# lint: no (zero at run time: the saturation depends on the input values)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(52800582)
counts = rng.uniform(5e4, 2e5, size=(128, 3)).astype("float32")
y = (np.log(counts).sum(axis=1, keepdims=True) / 10.0 - 3.5).astype("float32")

model = tf.keras.Sequential([
    tf.keras.Input((3,)),
    tf.keras.layers.Dense(16, activation="tanh", name="hidden"),  # expect: zero-at-runtime primary
    tf.keras.layers.Dense(1, name="out"),
], name="census")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(counts, y, epochs=3, batch_size=32, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
