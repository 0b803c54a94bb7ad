# source: https://www.tensorflow.org/api_docs/python/tf/GradientTape
# summary: a tape made with watch_accessed_variables=False that watches the backing tf.Variable (.value) of each head variable in a for loop (the backbone is read but deliberately not watched), and differentiates with respect to the head only
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
backbone = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="relu")], name="backbone")
head = keras.Sequential([keras.Input((8,)), keras.layers.Dense(2)], name="head")
x = tf.constant(np.random.default_rng(62).normal(size=(16, 5)), tf.float32)
y = tf.constant(np.random.default_rng(63).integers(0, 2, 16))
with tf.GradientTape(watch_accessed_variables=False) as tape:
    for variable in head.trainable_variables:
        tape.watch(variable.value)  # the backing tf.Variable (a Keras 3 variable cannot be watched)
    logits = head(backbone(x))
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
grads = tape.gradient(loss, head.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
