# summary: the generator is the learned quantity and tf.linalg.expm (which has a gradient) maps it to the transition matrix, so the fit runs forward through differentiable ops
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rate = np.array([[-0.5, 0.3, 0.2], [0.1, -0.4, 0.3], [0.2, 0.2, -0.4]], dtype="float32")
target = tf.linalg.expm(tf.constant(rate))
generator = tf.Variable(np.zeros((3, 3), dtype="float32"), name="generator")
optimizer = tf.keras.optimizers.SGD(0.05)

for _ in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(tf.linalg.expm(generator) - target))
    grad = tape.gradient(loss, generator)
    optimizer.apply_gradients([(grad, generator)])
assert grad is not None and float(tf.reduce_max(tf.abs(grad))) > 0
