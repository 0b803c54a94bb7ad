# source: https://github.com/tensorflow/addons/issues/693
# summary: a focal loss clips probabilities to [eps, 1 - eps] (not saturated: gradients flow)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(118)
x = rng.normal(size=(32, 4)).astype("float32")
y = (rng.random((32, 1)) > 0.5).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(1, activation="sigmoid", name="p")],
                            name="focal")

with tf.GradientTape() as tape:
    p = tf.clip_by_value(model(x), 1e-7, 1.0 - 1e-7)
    p_t = y * p + (1 - y) * (1 - p)
    loss = tf.reduce_mean(-((1 - p_t) ** 2) * tf.math.log(p_t))
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
