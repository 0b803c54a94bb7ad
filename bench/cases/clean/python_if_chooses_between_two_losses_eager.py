# summary: curriculum in an eager loop: a Python if on the current loss value (a tensor from the weights) switches from an L1 to an L2 objective once the error is small; both branches are computed from the model's output
# source: https://www.tensorflow.org/guide/function#conditionals
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(75)
rng = np.random.default_rng(75)
x = rng.normal(size=(16, 4)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")
model = keras.Sequential([keras.Input((4,)), layers.Dense(8, activation="tanh", name="h"), layers.Dense(1, name="out")])
opt = keras.optimizers.SGD(0.05)
for _ in range(2):
    with tf.GradientTape() as tape:
        err = model(x) - y
        l1 = tf.reduce_mean(tf.abs(err))
        if l1 > 0.5:
            loss = l1
        else:
            loss = tf.reduce_mean(tf.square(err))
    grads = tape.gradient(loss, model.trainable_weights)
    opt.apply_gradients(zip(grads, model.trainable_weights))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
