# source: https://www.tensorflow.org/api_docs/python/tf/clip_by_global_norm
# summary: a custom tf.function step that clips the gradients by their global norm (tf.clip_by_global_norm, a small clip norm) and logs the norm with tf.print before applying them
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(16, activation="relu"),
                          keras.layers.Dense(1)], name="reg")
opt = keras.optimizers.SGD(0.1)
x = tf.constant(np.random.default_rng(26).normal(size=(32, 6)) * 10, tf.float32)
y = tf.constant(np.random.default_rng(27).normal(size=(32, 1)) * 10, tf.float32)


@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    clipped, norm = tf.clip_by_global_norm(grads, 1.0)
    tf.print("grad norm", norm)
    opt.apply_gradients(zip(clipped, model.trainable_variables))
    return grads


grads = step()
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
