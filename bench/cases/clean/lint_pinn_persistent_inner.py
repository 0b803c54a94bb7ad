# source: https://github.com/tensorflow/tensorflow/issues/53266
# summary: a physics-informed loss: a persistent inner tape whose first derivative is taken inside its block, second derivatives inside the outer tape, in a tf.function step
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

net = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(8, activation="tanh"),
                           tf.keras.layers.Dense(1)], name="pinn")
opt = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(t, x):
    with tf.GradientTape() as tape:
        with tf.GradientTape(persistent=True) as inner:
            inner.watch(t)
            inner.watch(x)
            u = net(tf.concat([t, x], axis=1))
            u_x = inner.gradient(u, x)
        u_t = inner.gradient(u, t)
        u_xx = inner.gradient(u_x, x)
        del inner
        loss = tf.reduce_mean((u_t - 0.01 * u_xx) ** 2) + tf.reduce_mean(u ** 2)
    grads = tape.gradient(loss, net.trainable_variables)
    opt.apply_gradients(zip(grads, net.trainable_variables))
    return grads


rng = np.random.default_rng(1715)
grads = train_step(tf.constant(rng.random((8, 1)).astype("float32")),
                   tf.constant(rng.random((8, 1)).astype("float32")))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
