# summary: the GradientTape object is made first (persistent, to take two gradients) and entered with `with tape:` around the forward pass; it records, and every weight gets a gradient from both losses
# source: https://www.tensorflow.org/api_docs/python/tf/GradientTape
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)
rng = np.random.default_rng(5)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")

model = keras.Sequential([keras.Input((4,)),
                          keras.layers.Dense(8, activation="tanh", name="hidden"),
                          keras.layers.Dense(1, name="out")], name="regressor")

tape = tf.GradientTape(persistent=True)
with tape:
    pred = model(x, training=True)
    mse = tf.reduce_mean(tf.square(pred - y))
    mae = tf.reduce_mean(tf.abs(pred - y))
grads_mse = tape.gradient(mse, model.trainable_variables)
grads_mae = tape.gradient(mae, model.trainable_variables)
del tape
assert len(grads_mse) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads_mse + grads_mae)
