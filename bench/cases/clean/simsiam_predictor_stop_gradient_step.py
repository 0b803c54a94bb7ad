# summary: SimSiam: two augmented views through one encoder, a predictor on each, the negative cosine against the other view's projection under stop_gradient (symmetric), a tf.function step
# source: https://keras.io/examples/vision/simsiam/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(11)
images = np.random.default_rng(11).normal(size=(32, 12)).astype("float32")
encoder = keras.Sequential([keras.Input((12,)), layers.Dense(16, activation="relu", name="enc_h"),
                            layers.Dense(8, name="enc_proj")], name="encoder")
predictor = keras.Sequential([keras.Input((8,)), layers.Dense(4, activation="relu", name="pred_h"),
                              layers.Dense(8, name="pred_out")], name="predictor")
optimizer = keras.optimizers.SGD(0.05, momentum=0.9)


def neg_cosine(p, z):
    z = tf.stop_gradient(z)
    p = tf.math.l2_normalize(p, axis=1)
    z = tf.math.l2_normalize(z, axis=1)
    return -tf.reduce_mean(tf.reduce_sum(p * z, axis=1))


def augment(x):
    noise = tf.random.normal(tf.shape(x), stddev=0.1)
    keep = tf.cast(tf.random.uniform(tf.shape(x)) > 0.2, x.dtype)
    return (x + noise) * keep


@tf.function
def train_step(x):
    v1, v2 = augment(x), augment(x)
    with tf.GradientTape() as tape:
        z1, z2 = encoder(v1, training=True), encoder(v2, training=True)
        p1, p2 = predictor(z1, training=True), predictor(z2, training=True)
        loss = 0.5 * neg_cosine(p1, z2) + 0.5 * neg_cosine(p2, z1)
    weights = encoder.trainable_variables + predictor.trainable_variables
    grads = tape.gradient(loss, weights)
    optimizer.apply_gradients(zip(grads, weights))
    return loss


weights = encoder.trainable_variables + predictor.trainable_variables
before = [w.numpy().copy() for w in weights]
for _ in range(3):
    train_step(images)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, weights))
