# summary: the warp is the Kumaraswamy CDF 1 - (1 - x**a)**b, written with differentiable ops, so the shape parameters get gradients with the regressor
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1580)
u = rng.uniform(0.02, 0.98, size=(128, 1)).astype("float32")
y = np.sin(6.0 * u ** 2).astype("float32")

warp_a = tf.Variable(0.0, name="warp_a")
warp_b = tf.Variable(0.0, name="warp_b")
head = tf.keras.Sequential([tf.keras.Input((1,)),
                            tf.keras.layers.Dense(16, activation="tanh", name="h"),
                            tf.keras.layers.Dense(1, name="out")], name="head")
optimizer = tf.keras.optimizers.Adam(2e-2)
sources = [warp_a, warp_b] + head.trainable_variables


@tf.function
def train_step(inputs, targets):
    with tf.GradientTape() as tape:
        a = tf.nn.softplus(warp_a) + 0.5
        b = tf.nn.softplus(warp_b) + 0.5
        warped = 1.0 - tf.pow(1.0 - tf.pow(inputs, a), b)
        loss = tf.reduce_mean(tf.square(head(warped, training=True) - targets))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return loss, grads


loss, grads = train_step(u, y)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
