import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
x = tf.random.normal((8, 4))
y = tf.random.normal((8, 1))
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3, name="a"),
                             tf.keras.layers.Dense(1, name="b")])
temp = tf.Variable(1.5, name="temp")
@tf.function
def step():
    with tf.GradientTape() as tape:
        pred = model(x)
        host = pred.numpy()
        loss = tf.reduce_sum(host * temp)
    return tape.gradient(loss, model.trainable_weights + [temp])
try:
    step()
except AttributeError as e:
    print("caught")
