# summary: the kernels keep Keras' default random (Glorot) initialisation, so the symmetry is broken and every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(121049)
x = rng.normal(size=(128, 3)).astype("float32")
y = np.tanh(x @ np.array([[1.5], [-1.0], [0.5]], dtype="float32"))

model = tf.keras.Sequential([
    tf.keras.Input((3,)),
    tf.keras.layers.Dense(8, activation="tanh", name="hidden"),
    tf.keras.layers.Dense(1, name="out"),
], name="zeronet")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=3, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
