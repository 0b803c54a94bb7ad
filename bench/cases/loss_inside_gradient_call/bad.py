# source: https://github.com/tensorflow/tensorflow/issues/27660
# cause: outside-tape
# rule: TM103
# weights: lin/w/kernel, lin/w/bias
# mode: eager
# summary: the forward pass and loss are written inside the tape.gradient(...) argument
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(19)
x = rng.normal(size=(16, 2)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((2,)), tf.keras.layers.Dense(1, name="w")],
                            name="lin")


def mse(pred, target):
    return tf.reduce_mean((pred - target) ** 2)


def grad(features, target):
    features = tf.convert_to_tensor(features)
    with tf.GradientTape() as t:
        t.watch(features)
    params = model.trainable_variables
    return t.gradient(mse(model(features), target), params)  # expect: outside-tape primary


print(grad(x, y))
