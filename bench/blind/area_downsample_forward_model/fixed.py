# summary: the factor-2 area downsampling is written as a 2x2 average pool, which has a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(16)
params = tf.constant(rng.normal(size=(16, 3)).astype("float32"))
observed = tf.constant(rng.uniform(size=(16, 4, 4, 1)).astype("float32"))
model = tf.keras.Sequential([tf.keras.Input((3,)),
                             tf.keras.layers.Dense(64, activation="softplus", name="field"),
                             tf.keras.layers.Reshape((8, 8, 1))], name="psf")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def fit_step(p, target):
    with tf.GradientTape() as tape:
        high = model(p, training=True)
        low = tf.nn.avg_pool2d(high, ksize=2, strides=2, padding="VALID")
        loss = tf.reduce_mean(tf.square(low - target))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = fit_step(params, observed)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
