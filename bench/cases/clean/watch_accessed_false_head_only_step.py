# summary: partial fine-tuning with GradientTape(watch_accessed_variables=False) and tape.watch of a head held in plain tf.Variables: the Keras backbone runs under the tape but only the head is watched and asked for, a @tf.function step
# source: https://www.tensorflow.org/guide/autodiff#controlling_what_the_tape_watches
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(55)
rng = np.random.default_rng(55)
x = rng.normal(size=(16, 6)).astype("float32")
y = rng.integers(0, 2, size=(16,)).astype("int32")
backbone = keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="relu", name="f")], name="backbone")
head_w = tf.Variable(rng.normal(size=(8, 2)).astype("float32") * 0.3, name="head_w")
head_b = tf.Variable(np.zeros(2, "float32"), name="head_b")
head_vars = [head_w, head_b]
opt = keras.optimizers.SGD(0.1)


@tf.function
def step(xb, yb):
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(head_vars)
        logits = tf.matmul(backbone(xb), head_w) + head_b
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(yb, logits))
    grads = tape.gradient(loss, head_vars)
    opt.apply_gradients(zip(grads, head_vars))
    return grads


grads = step(x, y)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
