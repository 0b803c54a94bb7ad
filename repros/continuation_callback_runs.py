import keras
import numpy as np
import tensorflow as tf
keras.utils.set_random_seed(0)
x = tf.random.normal((8, 4))
y = tf.random.normal((8, 1))
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3, name="a"),
                             tf.keras.layers.Dense(1, name="b")])
calls = []
def note(t):
    calls.append("note")
    print("note called")
    return t * 2.0
@tf.function
def step():
    with tf.GradientTape() as tape:
        pred = model(x)
        host = pred.numpy()
        doubled = tf.nest.map_structure(note, host)
        loss = tf.reduce_sum(doubled)
    return tape.gradient(loss, model.trainable_weights)
try:
    step()
except AttributeError as e:
    print("caught", type(e).__name__)
OUT_calls = calls
