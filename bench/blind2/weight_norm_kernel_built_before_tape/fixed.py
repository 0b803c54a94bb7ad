# summary: the weight-normalised kernel is recomputed from its variables inside the tape on every step, so direction, magnitude and bias all get gradients
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(15682)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x @ np.array([[0.5], [-1.0], [2.0], [0.0]], dtype="float32") + 0.3).astype("float32")

direction = tf.Variable(rng.normal(size=(4, 1)).astype("float32"), name="direction")
magnitude = tf.Variable(1.0, name="magnitude")
bias = tf.Variable(0.0, name="bias")
optimizer = tf.keras.optimizers.SGD(0.1)

for _ in range(3):
    with tf.GradientTape() as tape:
        kernel = magnitude * direction / tf.norm(direction)
        loss = tf.reduce_mean(tf.square(x @ kernel + bias - y))
    grads = tape.gradient(loss, [direction, magnitude, bias])
    assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
    optimizer.apply_gradients(zip(grads, [direction, magnitude, bias]))
