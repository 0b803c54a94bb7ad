import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
x = tf.random.normal((8, 4))
y = tf.random.normal((8, 1))
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3, name="a"),
                             tf.keras.layers.Dense(1, name="b")])
@tf.function
def step():
    with tf.GradientTape() as tape:
        pred = model(x)
        host = pred.numpy()
        noisy = host + keras.random.normal((8, 1))
        loss = tf.reduce_sum(noisy)
    return tape.gradient(loss, model.trainable_weights)
try:
    step()
except AttributeError as e:
    print("caught", type(e).__name__)
OUT_a = keras.random.normal((3,)).numpy()
OUT_b = keras.random.uniform((3,)).numpy()
import random
OUT_py = random.random()
OUT_np = np.random.rand()
