# summary: the forward pass runs inside a with tf.GradientTape() block, the tape records it, and every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(42)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")

model = keras.Sequential([keras.Input((4,)),
                          keras.layers.Dense(8, activation="relu", name="price_hidden"),
                          keras.layers.Dense(1, name="price_out")], name="price_model")

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
grads = tape.gradient(loss, model.trainable_variables)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
