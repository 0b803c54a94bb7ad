# source: https://www.tensorflow.org/api_docs/python/tf/linalg/lu
# summary: a fixed (data) stiffness matrix is factorised once with tf.linalg.lu and each step solves it against a right-hand side the network predicts; Lu has no gradient, but only the constant matrix goes through it, and the solve is differentiable in the right-hand side, so every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(11)
stiffness = (np.eye(4) * 4.0 + rng.normal(scale=0.3, size=(4, 4))).astype("float32")
lower_upper, perm = tf.linalg.lu(tf.constant(stiffness))
x = rng.normal(size=(32, 3)).astype("float32")
target = rng.normal(size=(32, 4, 1)).astype("float32")

load_net = keras.Sequential([keras.Input((3,)),
                             keras.layers.Dense(8, activation="tanh", name="load_hidden"),
                             keras.layers.Dense(4, name="load_out")], name="load_net")


@tf.function
def train_step(features, wanted):
    with tf.GradientTape() as tape:
        rhs = load_net(features, training=True)[..., None]
        displacement = tf.linalg.lu_solve(tf.broadcast_to(lower_upper, (32, 4, 4)), tf.broadcast_to(perm, (32, 4)), rhs)
        loss = tf.reduce_mean(tf.square(displacement - wanted))
    return tape.gradient(loss, load_net.trainable_variables)


grads = train_step(x, target)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
