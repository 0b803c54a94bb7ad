# summary: a training step binds tape = tf.GradientTape(persistent=True) on one line and enters it later with `with tape:` around the forward pass (the object is made apart from its with statement); it records, and every weight of both heads gets a gradient, eager
# source: https://docs.python.org/3/reference/compound_stmts.html#the-with-statement
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(3)
x = rng.normal(size=(32, 4)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")

body = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu")], name="body")
head_a = keras.Sequential([keras.Input((8,)), keras.layers.Dense(1)], name="head_a")
head_b = keras.Sequential([keras.Input((8,)), keras.layers.Dense(1)], name="head_b")

tape = tf.GradientTape(persistent=True)
with tape:
    features = body(x)
    loss_a = tf.reduce_mean(tf.square(head_a(features) - y))
    loss_b = tf.reduce_mean(tf.abs(head_b(features) - y))
grads_a = tape.gradient(loss_a, body.trainable_variables + head_a.trainable_variables)
grads_b = tape.gradient(loss_b, head_b.trainable_variables)
del tape

assert len(grads_a) == 4 and len(grads_b) == 2
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads_a + grads_b)
