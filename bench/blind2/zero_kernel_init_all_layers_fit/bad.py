# source: https://community.deeplearning.ai/t/week-1-programming-assignment-initialization-exercise-1-initialize-parameters-zeros/121049
# cause: zero-at-runtime
# weights: zeronet/hidden/kernel, zeronet/hidden/bias, zeronet/out/kernel
# mode: fit
# summary: every Dense layer is built with kernel_initializer="zeros"; the hidden activations and the output kernel are zero, so every kernel and the hidden bias get exactly zero gradients on every step and fit only moves the output bias
# lint: no (zero at run time: the zeros come from the initial values)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(121049)
x = rng.normal(size=(128, 3)).astype("float32")
y = np.tanh(x @ np.array([[1.5], [-1.0], [0.5]], dtype="float32"))

model = tf.keras.Sequential([
    tf.keras.Input((3,)),
    tf.keras.layers.Dense(8, activation="tanh", kernel_initializer="zeros", name="hidden"),  # expect: zero-at-runtime primary
    tf.keras.layers.Dense(1, kernel_initializer="zeros", name="out"),  # accept: zero-at-runtime
], name="zeronet")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=3, batch_size=32, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
