# summary: the hidden layer uses tanh, whose second derivative is non-zero, so the PDE residual depends on the weights and every weight that shapes u'' gets a gradient (the output bias does not enter u'' at all)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

xs = tf.constant(np.linspace(0.05, 0.95, 24)[:, None].astype("float32"))

net = tf.keras.Sequential([tf.keras.Input((1,)),
                           tf.keras.layers.Dense(16, activation="tanh", name="u_hidden"),
                           tf.keras.layers.Dense(1, name="u_out")], name="poisson_net")


@tf.function
def train_step(points):
    with tf.GradientTape() as tape:
        with tf.GradientTape() as outer:
            outer.watch(points)
            with tf.GradientTape() as inner:
                inner.watch(points)
                u = net(points, training=True)
            u_x = inner.gradient(u, points)
        u_xx = outer.gradient(u_x, points)
        loss = tf.reduce_mean(tf.square(u_xx + 1.0))
    return tape.gradient(loss, net.trainable_variables[:3])


grads = train_step(xs)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
