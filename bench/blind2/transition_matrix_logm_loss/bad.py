# source: https://github.com/tensorflow/tensorflow/issues/30565
# cause: non-differentiable-op
# weights: transition
# mode: eager
# summary: a learned transition matrix is fitted by comparing its matrix logarithm with a known rate matrix; tf.linalg.logm has no registered gradient, so the gradient call raises LookupError
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rate = np.array([[-0.5, 0.3, 0.2], [0.1, -0.4, 0.3], [0.2, 0.2, -0.4]], dtype="float32")
transition = tf.Variable(np.eye(3, dtype="float32") + 0.05, name="transition")
optimizer = tf.keras.optimizers.SGD(0.05)

for _ in range(3):
    with tf.GradientTape() as tape:
        log_t = tf.linalg.logm(tf.cast(transition, tf.complex64))  # expect: non-differentiable-op primary
        loss = tf.reduce_sum(tf.square(tf.math.real(log_t) - rate))
    grad = tape.gradient(loss, transition)
    optimizer.apply_gradients([(grad, transition)])
print("loss", float(loss))
