# summary: the loss is the Poisson negative log-likelihood of the observed counts under the predicted rate, so nothing is sampled and every weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(9260)
x = rng.normal(size=(64, 3)).astype("float32")
counts = rng.poisson(np.exp(0.5 * x[:, :1] + 1.0)).astype("float32")
model = tf.keras.Sequential([tf.keras.Input((3,)),
                             tf.keras.layers.Dense(8, activation="relu", name="rate_hidden"),
                             tf.keras.layers.Dense(1, name="log_rate")], name="rate_net")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, observed):
    with tf.GradientTape() as tape:
        log_rate = model(features, training=True)
        loss = tf.reduce_mean(tf.exp(log_rate) - observed * log_rate)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step(x, counts)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
