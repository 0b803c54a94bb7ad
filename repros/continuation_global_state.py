import keras
import numpy as np
import tensorflow as tf
from tensorflow.python.ops import stateful_random_ops
keras.utils.set_random_seed(0)
x = tf.random.normal((8, 4))
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(1)])
@tf.function
def step():
    with tf.GradientTape() as tape:
        pred = model(x)
        host = pred.numpy()
        generator = tf.random.get_global_generator()
        floatx = keras.config.set_floatx("float64")
        loss = tf.reduce_sum(host)
    return tape.gradient(loss, model.trainable_weights)
try:
    step()
except AttributeError:
    print("caught")
OUT_state = (keras.config.floatx(), stateful_random_ops.global_generator is None)
