# source: https://github.com/tensorflow/tensorflow/issues/15682
# cause: outside-tape
# weights: direction, magnitude
# mode: eager
# summary: a weight-normalised kernel (g * v / |v|) is computed once before the training loop; the loop's tape only sees that fixed tensor, so the direction and magnitude variables get None and only the bias trains
# lint: yes
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
kernel = magnitude * direction / tf.norm(direction)  # expect: outside-tape primary

for _ in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(x @ kernel + bias - y))
    grads = tape.gradient(loss, [direction, magnitude, bias])
    print("grads None:", [g is None for g in grads])
    optimizer.apply_gradients([(g, v) for g, v in zip(grads, [direction, magnitude, bias]) if g is not None])
