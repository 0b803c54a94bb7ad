# summary: softmax + center loss: class centers in a non-trainable tf.Variable gathered by integer labels inside the tape, then moved towards the features with scatter_sub after the step (outside the tape)
# source: https://github.com/EncodeTS/TensorFlow_Center_Loss
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(27)
rng = np.random.default_rng(27)
x = rng.normal(size=(24, 10)).astype("float32")
y = rng.integers(0, 3, size=(24,)).astype("int32")
feat = keras.Sequential([keras.Input((10,)), layers.Dense(8, activation="relu", name="f1"),
                         layers.Dense(4, name="f2")], name="features")
head = layers.Dense(3, name="head")
centers = tf.Variable(tf.zeros((3, 4)), trainable=False, name="centers")
opt = keras.optimizers.Adam(1e-3)
alpha = 0.5


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        f = feat(xb, training=True)
        logits = head(f)
        ce = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(yb, logits))
        c = tf.gather(centers, yb)
        center = tf.reduce_mean(tf.reduce_sum(tf.square(f - c), axis=1))
        loss = ce + 0.1 * center
    weights = feat.trainable_weights + head.trainable_weights
    grads = tape.gradient(loss, weights)
    opt.apply_gradients(zip(grads, weights))
    diff = alpha * (c - f)
    centers.scatter_sub(tf.IndexedSlices(diff, yb))
    return grads


for _ in range(2):
    grads = step(x, y)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
