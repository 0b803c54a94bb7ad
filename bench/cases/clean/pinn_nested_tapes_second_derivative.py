# summary: a PINN step with nested tapes: the inner persistent tape gives u_x and u_xx inside the outer tape's block, the residual loss is differentiated w.r.t. the network after the outer block
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

net = tf.keras.Sequential([tf.keras.layers.Input((1,)),
                           tf.keras.layers.Dense(8, activation="tanh", name="h1"),
                           tf.keras.layers.Dense(8, activation="tanh", name="h2"),
                           tf.keras.layers.Dense(1, name="u")], name="pinn")
optimizer = tf.keras.optimizers.Adam(1e-3)
x_col = tf.constant(np.linspace(-1.0, 1.0, 32, dtype="float32")[:, None])


@tf.function
def train_step(x):
    with tf.GradientTape() as outer:
        with tf.GradientTape(persistent=True) as inner:
            inner.watch(x)
            u = net(x)
            u_x = inner.gradient(u, x)
        u_xx = inner.gradient(u_x, x)
        residual = u_xx + np.pi ** 2 * tf.sin(np.pi * x)
        loss = tf.reduce_mean(tf.square(residual)) + tf.reduce_mean(tf.square(u[:1] - 0.0))
    grads = outer.gradient(loss, net.trainable_variables)
    optimizer.apply_gradients(zip(grads, net.trainable_variables))
    return grads


grads = train_step(x_col)
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads), grads
print("grads:", [float(tf.reduce_sum(tf.abs(g))) for g in grads])
