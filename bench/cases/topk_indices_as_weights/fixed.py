# summary: the loss uses a soft (softmax-weighted) expected index, which has a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(39)
x = rng.normal(size=(8, 6)).astype("float32")
wanted = tf.constant(rng.integers(0, 10, size=(8, 3)).astype("float32"))
model = tf.keras.Sequential([tf.keras.layers.Input((6,)), tf.keras.layers.Dense(10, name="att")],
                            name="selector")

with tf.GradientTape() as tape:
    scores = model(x)
    probs = tf.nn.softmax(scores)
    expected = tf.reduce_sum(probs * tf.range(10, dtype=tf.float32), axis=-1, keepdims=True)
    loss = tf.reduce_mean(tf.square(expected - wanted))
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
