# source: https://github.com/keras-team/keras/issues/19155
# cause: not-watched
# weights: -
# mode: eager
# summary: a tape with watch_accessed_variables=False is told to watch a Keras 3 Variable (raises)
# lint: yes
import numpy as np
import tensorflow as tf
from tensorflow import keras

keras.utils.set_random_seed(1234)
x = tf.constant(np.random.default_rng(36).normal(size=(8, 3)).astype("float32"))
model = keras.Sequential([keras.layers.Input((3,)),
                          keras.layers.Dense(10, activation="tanh", name="l1"),
                          keras.layers.Dense(1, name="l2")], name="toy")
kernel = model.layers[0].kernel

with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(kernel)  # expect: not-watched primary
    out = tf.reduce_sum(model(x))
print(tape.gradient(out, kernel))
