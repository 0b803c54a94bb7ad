# source: https://www.tensorflow.org/api_docs/python/tf/map_fn
# summary: a tf.function step that builds its regression targets from the raw inputs with tf.map_fn(back_prop=False) (a per-example target computed from data only), while the model's forward pass and the loss stay differentiable
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)], name="reg")
opt = keras.optimizers.SGD(0.05)
x = tf.constant(np.random.default_rng(80).normal(size=(16, 4)), tf.float32)


@tf.function
def step(batch):
    targets = tf.map_fn(lambda row: tf.reduce_sum(tf.sin(row), keepdims=True), batch, back_prop=False)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(batch) - targets))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = step(x)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
