# source: https://www.tensorflow.org/versions/r2.1/api_docs/python/tf/linalg/lu_solve
# cause: non-differentiable-op
# weights: system_net/system_hidden/kernel, system_net/system_hidden/bias, system_net/system_matrix/kernel, system_net/system_matrix/bias
# mode: function
# summary: a network predicts a small linear system per sample and solves it with tf.linalg.lu_solve(*tf.linalg.lu(A), b), reusing the factorisation as the docs show; the Lu op has no registered gradient, so the traced step raises LookupError
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2101)
x = rng.normal(size=(32, 5)).astype("float32")
b = rng.normal(size=(32, 3, 1)).astype("float32")
target = rng.normal(size=(32, 3, 1)).astype("float32")

net = tf.keras.Sequential([tf.keras.Input((5,)),
                           tf.keras.layers.Dense(16, activation="tanh", name="system_hidden"),
                           tf.keras.layers.Dense(9, name="system_matrix")], name="system_net")


@tf.function
def train_step(features, rhs, wanted):
    with tf.GradientTape() as tape:
        a = tf.reshape(net(features, training=True), (-1, 3, 3)) + 3.0 * tf.eye(3)
        lower_upper, perm = tf.linalg.lu(a)  # expect: non-differentiable-op primary
        solution = tf.linalg.lu_solve(lower_upper, perm, rhs)
        loss = tf.reduce_mean(tf.square(solution - wanted))
    return tape.gradient(loss, net.trainable_variables)


try:
    train_step(x, b, target)
except Exception as err:  # a StagingError that carries the LookupError in a traced step
    print(type(err).__name__, err)
