# source: https://github.com/jax-ml/jax/issues/15487
# summary: a Beta CDF (tf.math.betainc) with fixed shape parameters is applied to a learned projection of the input; betainc is differentiable in x, the only input that carries learned values here, so every weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(15487)
x = rng.normal(size=(64, 3)).astype("float32")
y = (x[:, :1] > 0.2).astype("float32") * 0.8 + 0.1
proj = tf.keras.layers.Dense(1, name="proj")
proj.build((None, 3))
shape_a = tf.constant(2.0)
shape_b = tf.constant(3.0)
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        unit = tf.sigmoid(proj(features))
        cdf = tf.math.betainc(shape_a, shape_b, unit)
        loss = tf.reduce_mean(tf.square(cdf - targets))
    grads = tape.gradient(loss, proj.trainable_variables)
    optimizer.apply_gradients(zip(grads, proj.trainable_variables))
    return grads


grads = train_step(x, y)
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
