# summary: Barlow Twins: a train_step override, batch-normalised embeddings of two views, their cross-correlation, the on-diagonal term through tf.linalg.diag_part and the off-diagonal one masked by 1 - eye, fit
# source: https://keras.io/examples/vision/barlow_twins/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(12)
data = np.random.default_rng(12).normal(size=(64, 10)).astype("float32")


class BarlowTwins(keras.Model):
    def __init__(self, lambd=5e-3):
        super().__init__()
        self.backbone = keras.Sequential([keras.Input((10,)), layers.Dense(16, activation="relu", name="bb"),
                                          layers.Dense(8, name="proj")], name="backbone")
        self.lambd = lambd
        self.loss_tracker = keras.metrics.Mean(name="loss")

    @property
    def metrics(self):
        return [self.loss_tracker]

    def barlow_loss(self, za, zb):
        n = tf.cast(tf.shape(za)[0], za.dtype)
        za = (za - tf.reduce_mean(za, 0)) / (tf.math.reduce_std(za, 0) + 1e-5)
        zb = (zb - tf.reduce_mean(zb, 0)) / (tf.math.reduce_std(zb, 0) + 1e-5)
        c = tf.matmul(za, zb, transpose_a=True) / n
        on_diag = tf.reduce_sum(tf.square(tf.linalg.diag_part(c) - 1.0))
        off_mask = 1.0 - tf.eye(tf.shape(c)[0])
        off_diag = tf.reduce_sum(tf.square(c * off_mask))
        return on_diag + self.lambd * off_diag

    def train_step(self, x):
        a = x + tf.random.normal(tf.shape(x), stddev=0.1)
        b = tf.reverse(x, axis=[1]) * 0.5 + x * 0.5
        with tf.GradientTape() as tape:
            loss = self.barlow_loss(self.backbone(a, training=True), self.backbone(b, training=True))
        grads = tape.gradient(loss, self.backbone.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.backbone.trainable_variables))
        self.loss_tracker.update_state(loss)
        return {"loss": self.loss_tracker.result()}


model = BarlowTwins()
model.compile(optimizer=keras.optimizers.Adam(1e-2))
model.backbone(data[:1])
before = [w.numpy().copy() for w in model.backbone.trainable_variables]
model.fit(data, epochs=2, batch_size=16, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.backbone.trainable_variables))
