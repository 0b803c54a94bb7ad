# source: https://github.com/mrosol/Nonlincausality/pull/12
# cause: not-connected
# rule: TM111
# weights: softness
# mode: eager
# summary: a learned softness scalar is made with tf.Variable inside the training loop, so every step differentiates a new variable and the optimizer, built with the first, rejects the next
# lint: no (the variable is seen to be made again only when the step runs a second time)
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

for step in range(4):
    with tf.GradientTape() as tape:
        softness = tf.Variable(2.0, name="softness")  # expect: not-connected primary
        pred = net(feats) / softness
        loss = tf.reduce_mean(tf.square(pred - target))
    params = net.trainable_variables + [softness]
    grads = tape.gradient(loss, params)
    opt.apply_gradients(zip(grads, params))
    print(step, float(loss), float(softness.numpy()))
