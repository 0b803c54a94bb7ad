# summary: an eager detection-style loss that returns tf.constant(0.0) when a batch has no positive anchors (a Python if on tf.reduce_sum of the label mask) and otherwise averages a smooth-L1 box loss over the positives
# source: https://keras.io/examples/vision/retinanet/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(71)
rng = np.random.default_rng(71)
feats = tf.constant(rng.normal(size=(32, 8)).astype("float32"))
boxes = tf.constant(rng.normal(size=(32, 4)).astype("float32"))
positive = tf.constant((rng.uniform(size=(32,)) < 0.3).astype("float32"))
box_head = keras.Sequential([keras.Input((8,)), layers.Dense(16, activation="relu", name="h"),
                             layers.Dense(4, name="box")], name="box_head")
opt = keras.optimizers.SGD(0.01)
huber = keras.losses.Huber(reduction="none")


def box_loss(pred, target, mask):
    n_pos = tf.reduce_sum(mask)
    if n_pos == 0:
        return tf.constant(0.0)
    return tf.reduce_sum(huber(target, pred) * mask) / n_pos


with tf.GradientTape() as tape:
    loss = box_loss(box_head(feats), boxes, positive)
grads = tape.gradient(loss, box_head.trainable_weights)
opt.apply_gradients(zip(grads, box_head.trainable_weights))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
