# source: https://github.com/peteryuX/retinaface-tf2/issues/6
# summary: hard negative mining: a double argsort ranks the losses, the ranks only make a mask
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(117)
x = rng.normal(size=(4, 10, 3)).astype("float32")
positive = tf.constant(rng.random((4, 10)) > 0.8)
model = tf.keras.Sequential([tf.keras.layers.Input((10, 3)), tf.keras.layers.Dense(2, name="cls")],
                            name="detector")

with tf.GradientTape() as tape:
    logits = model(x)
    labels = tf.cast(positive, tf.int32)
    loss_class = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)
    mining = tf.where(positive, tf.zeros_like(loss_class), loss_class)
    order = tf.argsort(mining, axis=1, direction="DESCENDING")
    rank = tf.argsort(order, axis=1)
    num_neg = 3 * tf.reduce_sum(tf.cast(positive, tf.int32), axis=1, keepdims=True) + 1
    keep = tf.logical_or(positive, rank < num_neg)
    loss = tf.reduce_sum(tf.where(keep, loss_class, 0.0)) / tf.reduce_sum(tf.cast(keep, tf.float32))
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
