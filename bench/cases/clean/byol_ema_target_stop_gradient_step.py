# summary: BYOL: online encoder+projector+predictor, an EMA target network read under stop_gradient, a tf.function step
# source: https://keras.io/examples/vision/simsiam/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(6)
x = np.random.default_rng(6).normal(size=(16, 10)).astype("float32")


def mlp(name, out=4):
    return keras.Sequential([keras.Input((10 if name.endswith("enc") else 4,)),
                             layers.Dense(8, activation="relu"), layers.BatchNormalization(),
                             layers.Dense(out)], name=name)


online_enc, online_pred = mlp("online_enc"), mlp("online_pred")
target_enc = mlp("target_enc")
target_enc.set_weights(online_enc.get_weights())
opt = keras.optimizers.SGD(0.05)
tau = 0.99


def byol_loss(p, z):
    p = tf.math.l2_normalize(p, axis=-1)
    z = tf.math.l2_normalize(z, axis=-1)
    return 2 - 2 * tf.reduce_mean(tf.reduce_sum(p * z, axis=-1))


@tf.function
def step(batch):
    v1 = batch + tf.random.normal(tf.shape(batch), stddev=0.1)
    v2 = batch * tf.random.uniform(tf.shape(batch), 0.8, 1.2)
    t1 = tf.stop_gradient(target_enc(v1, training=True))
    t2 = tf.stop_gradient(target_enc(v2, training=True))
    weights = online_enc.trainable_variables + online_pred.trainable_variables
    with tf.GradientTape() as tape:
        p1 = online_pred(online_enc(v1, training=True), training=True)
        p2 = online_pred(online_enc(v2, training=True), training=True)
        loss = byol_loss(p1, t2) + byol_loss(p2, t1)
    grads = tape.gradient(loss, weights)
    opt.apply_gradients(zip(grads, weights))
    for tw, ow in zip(target_enc.weights, online_enc.weights):
        tw.assign(tau * tw + (1 - tau) * ow)
    return grads


for _ in range(2):
    grads = step(tf.constant(x))
# the target encoder is updated by EMA only; it is not a source
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
