# source: https://github.com/Gsunshine/Enjoy-Hamburger/issues/12
# summary: an equilibrium layer iterates z = f(z, x) to a fixed point in a tf.while_loop, stops the gradient at the fixed point and applies f once more on the tape (the one-step gradient); the loop and stop_gradient hide only the iterations, so the cell, the input projection and the head all train
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(12)
x = rng.normal(size=(16, 4)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")

inject = tf.keras.layers.Dense(6, name="deq_inject")
mix = tf.keras.layers.Dense(6, use_bias=False, name="deq_mix",
                            kernel_initializer=tf.keras.initializers.RandomNormal(stddev=0.1))
head = tf.keras.layers.Dense(1, name="deq_head")
inject.build((None, 4))
mix.build((None, 6))
head.build((None, 6))
sources = inject.trainable_variables + mix.trainable_variables + head.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-2)


def cell(z, u):
    return tf.tanh(mix(z) + u)


@tf.function
def train_step(features, target):
    with tf.GradientTape() as tape:
        u = inject(features)
        _, z_star = tf.while_loop(lambda i, z: i < 30, lambda i, z: (i + 1, cell(z, u)),
                                  (tf.constant(0), tf.zeros_like(u)))
        z = cell(tf.stop_gradient(z_star), u)
        loss = tf.reduce_mean(tf.square(head(z) - target))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(x, y)
assert len(grads) == 5
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
