import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
x = tf.random.normal((8, 4))
y = tf.random.normal((8, 1))
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3, name="a"),
                             tf.keras.layers.Dense(1, name="b")])
@tf.function
def inner(p):
    host = p.numpy()
    ranked = tf.argsort(host, axis=-1)
    return tf.cast(ranked, tf.float32)
@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(inner(model(x)))
    return tape.gradient(loss, model.trainable_weights)
try:
    step()
except Exception as e:
    print("caught", type(e).__name__)
