# source: https://keras.io/api/utils/python_utils/#to_categorical-function
# summary: an eager step that one-hot encodes the integer labels with keras.utils.to_categorical (NumPy, on the labels) inside the tape, and normalises the loss by a Python int batch size read with int(tf.shape(x)[0]) and math.sqrt of the feature width
import math

import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((9,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(3)], name="clf")
x = tf.constant(np.random.default_rng(78).normal(size=(16, 9)), tf.float32)
labels = np.random.default_rng(79).integers(0, 3, 16)
with tf.GradientTape() as tape:
    onehot = keras.utils.to_categorical(labels, 3)
    n = int(tf.shape(x)[0])
    logits = model(x / math.sqrt(x.shape[-1]))
    loss = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(onehot, logits)) / n
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
