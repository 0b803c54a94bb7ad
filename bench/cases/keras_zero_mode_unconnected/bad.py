# source: https://github.com/tensorflow/tensorflow/issues/116636
# cause: not-connected
# rule: TM105
# weights: model_hr/hr/kernel, model_hr/hr/bias
# mode: eager
# summary: unconnected_gradients=ZERO with a Keras model the loss never uses (Keras 3 raises)
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(25)
boundary = rng.normal(size=(8, 2)).astype("float32")
model_lr = tf.keras.Sequential([tf.keras.layers.Input((2,)), tf.keras.layers.Dense(1, name="lr")],
                               name="model_lr")
model_hr = tf.keras.Sequential([tf.keras.layers.Input((2,)), tf.keras.layers.Dense(1, name="hr")],
                               name="model_hr")

with tf.GradientTape() as tap:
    lb = tf.reduce_mean(tf.square(model_lr(boundary)))
variables = [model_lr.trainable_variables, model_hr.trainable_variables]
zero = tf.UnconnectedGradients.ZERO
gb = tap.gradient(lb, variables, unconnected_gradients=zero)  # expect: not-connected primary
print(gb)
