# source: https://github.com/tensorflow/tensorflow/issues/9260
# cause: non-differentiable-op
# weights: rate_net/rate_hidden/kernel, rate_net/rate_hidden/bias, rate_net/log_rate/kernel, rate_net/log_rate/bias
# mode: function
# summary: a count model draws Poisson samples from its predicted rate with tf.random.poisson and regresses the samples onto the observed counts; the sampling op has no gradient, so the gradient call raises LookupError
# lint: yes
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
        rate = tf.exp(model(features, training=True))
        simulated = tf.random.poisson([], rate, seed=9260)  # expect: non-differentiable-op primary
        loss = tf.reduce_mean(tf.square(simulated - observed))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


print("loss", float(train_step(x, counts)))
