# summary: a PINN step: the inner derivative u_x and the residual loss are computed inside the persistent tape's with block, so the tape records them and every weight gets a gradient
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
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        u = net(x)
        u_x = tape.gradient(u, x)
        loss = tf.reduce_mean(tf.square(u_x - tf.cos(np.pi * x))) + tf.reduce_mean(tf.square(u - 1.0))
    grads = tape.gradient(loss, net.trainable_variables)
    del tape
    return loss, grads


loss, grads = train_step(x_col)
assert all(g is not None for g in grads), grads
assert all(float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads), grads
print("loss:", float(loss))
