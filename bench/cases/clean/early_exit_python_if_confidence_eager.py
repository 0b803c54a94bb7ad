# summary: an early-exit network in an eager loop: a Python if on the first head's confidence (a tensor from the weights) decides whether the deeper branch runs; both branches' losses read the weights, and gradients of the branch that did not run (None) are filtered before apply
# source: https://arxiv.org/abs/1709.01686
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(61)
rng = np.random.default_rng(61)
x = tf.constant(rng.normal(size=(8, 6)).astype("float32"))
y = tf.constant(rng.integers(0, 3, size=(8,)).astype("int32"))
trunk = layers.Dense(8, activation="relu", name="trunk")
exit1 = layers.Dense(3, name="exit1")
deep = layers.Dense(8, activation="relu", name="deep")
exit2 = layers.Dense(3, name="exit2")
for layer, d in ((trunk, 6), (exit1, 8), (deep, 8), (exit2, 8)):
    layer.build((None, d))
weights = trunk.trainable_weights + exit1.trainable_weights + deep.trainable_weights + exit2.trainable_weights
opt = keras.optimizers.SGD(0.05)
ce = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
used_deep = False
for _ in range(3):
    with tf.GradientTape() as tape:
        h = trunk(x)
        logits = exit1(h)
        if tf.reduce_mean(tf.reduce_max(tf.nn.softmax(logits), axis=-1)) < 0.9:
            loss = ce(y, logits) + ce(y, exit2(deep(h)))
            used_deep = True
        else:
            loss = ce(y, logits)
    grads = tape.gradient(loss, weights)
    opt.apply_gradients([(g, w) for g, w in zip(grads, weights) if g is not None])
assert used_deep
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
