# source: https://r2rt.com/binary-stochastic-neurons-in-tensorflow.html
# summary: binary stochastic neurons with a straight-through estimator: a Bernoulli sample drawn by comparing tf.random.uniform with the sigmoid probabilities, cast to float, and passed forward as p + stop_gradient(sample - p) so the gradient flows through p
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
enc = keras.layers.Dense(8, name="enc")
dec = keras.layers.Dense(6, name="dec")
x = tf.constant(np.random.default_rng(46).random((16, 6)), tf.float32)
enc(x)
dec(tf.zeros((1, 8)))
opt = keras.optimizers.Adam(1e-2)


@tf.function
def step(batch):
    with tf.GradientTape() as tape:
        p = tf.sigmoid(enc(batch))
        sample = tf.cast(tf.random.uniform(tf.shape(p)) < p, tf.float32)
        h = p + tf.stop_gradient(sample - p)
        loss = tf.reduce_mean(tf.square(dec(h) - batch))
    variables = enc.trainable_variables + dec.trainable_variables
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))
    return grads


grads = step(x)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
