# summary: gradients with respect to an intermediate activation and the head's weights in one call: the features are computed from the backbone's variables inside the tape (so the tape records them without a watch), eager
# source: https://keras.io/examples/vision/grad_cam/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(54)
x = tf.constant(np.random.default_rng(54).normal(size=(4, 8, 8, 3)).astype("float32"))
backbone = keras.Sequential([keras.Input((8, 8, 3)), layers.Conv2D(6, 3, activation="relu", name="conv")], name="backbone")
head = keras.Sequential([keras.Input((6, 6, 6)), layers.GlobalAveragePooling2D(), layers.Dense(3, name="cls")], name="head")
with tf.GradientTape() as tape:
    feats = backbone(x)
    score = tf.reduce_sum(head(feats)[:, 1])
grads = tape.gradient(score, [feats] + head.trainable_weights)
heatmap = tf.nn.relu(tf.reduce_sum(feats * tf.reduce_mean(grads[0], axis=(1, 2), keepdims=True), axis=-1))
print("heatmap", heatmap.shape)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
