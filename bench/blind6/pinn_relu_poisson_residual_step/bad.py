# source: https://arxiv.org/html/2512.11184v2
# cause: zero-at-runtime|not-connected
# weights: poisson_net/u_hidden/kernel, poisson_net/u_hidden/bias, poisson_net/u_out/kernel
# mode: function
# summary: a physics-informed network for u'' = -1 on [0, 1] (the boundary conditions built into the ansatz elsewhere) is trained on the PDE residual alone, with ReLU hidden units; the second derivative of a ReLU network is exactly 0 everywhere, the residual term is a constant, and no weight gets a gradient from it
# lint: no (relu is a valid activation; only its vanishing second derivative breaks a second-order residual)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

xs = tf.constant(np.linspace(0.05, 0.95, 24)[:, None].astype("float32"))

net = tf.keras.Sequential([tf.keras.Input((1,)),
                           tf.keras.layers.Dense(16, activation="relu", name="u_hidden"),  # expect: zero-at-runtime|not-connected primary
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
    return tape.gradient(loss, net.trainable_variables)


grads = train_step(xs)
print([None if g is None else float(tf.reduce_sum(tf.abs(g))) for g in grads])
