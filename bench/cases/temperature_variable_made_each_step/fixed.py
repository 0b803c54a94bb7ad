# summary: the softness scalar is made once before the loop, so each step updates the same variable
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(11)
rng = np.random.default_rng(11)
feats = rng.normal(size=(24, 5)).astype("float32")
target = rng.normal(size=(24, 1)).astype("float32")
net = keras.Sequential([keras.Input((5,)), keras.layers.Dense(4, name="hid"),
                        keras.layers.Dense(1, name="out")], name="reg")
opt = keras.optimizers.Adam(0.05)

softness = tf.Variable(2.0, name="softness")
for step in range(4):
    with tf.GradientTape() as tape:
        pred = net(feats) / softness
        loss = tf.reduce_mean(tf.square(pred - target))
    params = net.trainable_variables + [softness]
    grads = tape.gradient(loss, params)
    assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0.0 for g in grads)
    opt.apply_gradients(zip(grads, params))
assert abs(float(softness.numpy()) - 2.0) > 1e-4, "softness trains"
