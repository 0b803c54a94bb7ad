# summary: the system is solved with tf.linalg.solve, which has a gradient with respect to the matrix, so the network that predicts it trains
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
        solution = tf.linalg.solve(a, rhs)
        loss = tf.reduce_mean(tf.square(solution - wanted))
    return tape.gradient(loss, net.trainable_variables)


grads = train_step(x, b, target)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
