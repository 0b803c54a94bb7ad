# summary: conditional batch normalisation: per-class gamma and beta tables (tf.Variables) gathered by integer class labels scale an un-affine BatchNormalization, a class-conditional generator trained in a @tf.function step
# source: https://arxiv.org/abs/1707.00683
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(41)
rng = np.random.default_rng(41)
z = rng.normal(size=(16, 4)).astype("float32")
cls = rng.integers(0, 3, size=(16,)).astype("int32")
target = rng.normal(size=(16, 8)).astype("float32")


class CondBN(layers.Layer):
    def __init__(self, n_classes, **kw):
        super().__init__(**kw)
        self.n = n_classes
        self.bn = layers.BatchNormalization(center=False, scale=False)

    def build(self, shape):
        self.gamma = self.add_weight(shape=(self.n, shape[0][-1]), initializer="ones", name="gamma")
        self.beta = self.add_weight(shape=(self.n, shape[0][-1]), initializer="zeros", name="beta")

    def call(self, inputs, training=None):
        x, c = inputs
        return self.bn(x, training=training) * tf.gather(self.gamma, c) + tf.gather(self.beta, c)


d1 = layers.Dense(16, name="d1")
cbn = CondBN(3, name="cbn")
d2 = layers.Dense(8, name="d2")
opt = keras.optimizers.Adam(1e-3)


@tf.function
def step(z, c, t):
    with tf.GradientTape() as tape:
        h = tf.nn.relu(cbn([d1(z), c], training=True))
        loss = tf.reduce_mean(tf.square(d2(h) - t))
    weights = d1.trainable_weights + cbn.trainable_weights + d2.trainable_weights
    grads = tape.gradient(loss, weights)
    opt.apply_gradients(zip(grads, weights))
    return grads


grads = step(z, cls, target)
assert all(g is not None and float(tf.norm(tf.convert_to_tensor(g))) > 0 for g in grads)
