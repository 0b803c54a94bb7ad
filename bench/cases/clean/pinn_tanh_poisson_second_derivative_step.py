# summary: a physics-informed network for u'' = -1 trained on its PDE residual: the second derivative comes from two nested tapes around the network in a traced step; its hidden units are tanh, whose second derivative is not zero, so every weight but the output bias (which no derivative sees) gets a gradient
# source: https://github.com/maziarraissi/PINNs
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(7)

xs = tf.constant(np.linspace(0.05, 0.95, 24)[:, None].astype("float32"))
net = tf.keras.Sequential([tf.keras.Input((1,)),
                           tf.keras.layers.Dense(16, activation="tanh", name="u_hidden"),
                           tf.keras.layers.Dense(1, name="u_out")], name="poisson")


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
        boundary = tf.reduce_mean(tf.square(net(tf.constant([[0.0], [1.0]]))))
        loss = tf.reduce_mean(tf.square(u_xx + 1.0)) + boundary
    return tape.gradient(loss, net.trainable_variables)


grads = train_step(xs)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
