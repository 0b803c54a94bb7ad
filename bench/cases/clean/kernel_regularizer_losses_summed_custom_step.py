# source: https://keras.io/api/layers/regularizers/
# summary: a custom training loop that adds the model's regularisation losses (kernel_regularizer L2 and an activity_regularizer, collected in model.losses) to the data loss with tf.add_n, in a tf.function step
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((6,)),
                          keras.layers.Dense(8, activation="relu", kernel_regularizer=keras.regularizers.L2(1e-3),
                                             activity_regularizer=keras.regularizers.L1(1e-4), name="h"),
                          keras.layers.Dense(1, kernel_regularizer=keras.regularizers.L2(1e-3), name="out")])
opt = keras.optimizers.Adam(1e-3)
x = tf.constant(np.random.default_rng(44).normal(size=(16, 6)), tf.float32)
y = tf.constant(np.random.default_rng(45).normal(size=(16, 1)), tf.float32)


@tf.function
def step():
    with tf.GradientTape() as tape:
        pred = model(x, training=True)
        loss = tf.reduce_mean(tf.square(pred - y)) + tf.add_n(model.losses)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = step()
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
