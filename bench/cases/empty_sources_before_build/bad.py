# source: https://github.com/tensorflow/tensorflow/issues/26948
# cause: sources-mismatch
# weights: perceptron/d1/kernel, perceptron/d1/bias, perceptron/d2/kernel, perceptron/d2/bias
# mode: eager
# summary: the variable list is read from a Sequential model before it is built: it is empty
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(26)
x = rng.normal(size=(32, 3)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu", name="d1"),
                             tf.keras.layers.Dense(1, name="d2")], name="perceptron")
optimizer = tf.keras.optimizers.SGD(0.1)
params = list(model.trainable_variables)  # expect: sources-mismatch primary

for step in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, params)
    print(step, float(loss), len(params), grads)
