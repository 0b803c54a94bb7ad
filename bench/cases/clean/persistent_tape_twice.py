# summary: a persistent tape asked for two gradients (two losses, two parameter groups)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(110)
x = rng.normal(size=(16, 3)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")
body = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                            tf.keras.layers.Dense(4, activation="tanh", name="b")], name="body")
head = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(1, name="h")],
                           name="head")

with tf.GradientTape(persistent=True) as tape:
    features = body(x)
    loss_main = tf.reduce_mean(tf.square(head(features) - y))
    loss_reg = 1e-2 * tf.reduce_mean(tf.square(features))
    loss_total = loss_main + loss_reg
g_head = tape.gradient(loss_main, head.trainable_variables)
g_body = tape.gradient(loss_total, body.trainable_variables)
del tape
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in g_head + g_body)
