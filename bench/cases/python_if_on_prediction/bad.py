# source: https://github.com/tensorflow/tensorflow/issues/8322
# cause: python-control-flow
# rule: TM303
# weights: margin/s/kernel, margin/s/bias
# mode: eager
# summary: a Python `if` on the mean score picks a constant loss instead of computing one
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(34)
x = rng.normal(size=(16, 3)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((3,)), tf.keras.layers.Dense(1, name="s")],
                            name="margin")

with tf.GradientTape() as tape:
    score = tf.reduce_mean(model(x))
    if score > 0.0:  # expect: python-control-flow primary
        loss = tf.constant(0.0)  # accept
    else:
        loss = tf.constant(1.0)  # accept
grads = tape.gradient(loss, model.trainable_variables)
print(float(score), grads)
