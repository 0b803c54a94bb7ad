# source: https://github.com/tensorflow/tensorflow/issues/31519
# cause: outside-tape
# rule: TM103
# weights: pinn/h1/kernel, pinn/h1/bias, pinn/h2/kernel, pinn/h2/bias, pinn/u/kernel, pinn/u/bias
# mode: function
# summary: a PINN step: the persistent tape's inner derivative u_x and the residual loss built from it are computed after the with block, so the tape never records them
# lint: no (a gradient of the tape taken after its block and used as a value is not a cut the source checker sees)
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
    u_x = tape.gradient(u, x)  # expect: outside-tape primary
    loss = tf.reduce_mean(tf.square(u_x - tf.cos(np.pi * x))) + tf.reduce_mean(tf.square(u - 1.0))  # expect: outside-tape primary
    grads = tape.gradient(loss, net.trainable_variables)
    optimizer.apply_gradients(zip(grads, net.trainable_variables))
    return loss


print("loss:", float(train_step(x_col)))
