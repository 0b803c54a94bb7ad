# summary: VQ-VAE with an EMA codebook (Sonnet's VectorQuantizerEMA): the codebook and its cluster statistics are non-trainable variables assigned inside the layer's call during training, under the tape; the encoder trains through a straight-through quantiser, a @tf.function step
# source: https://github.com/google-deepmind/sonnet/blob/v2/sonnet/src/nets/vqvae.py
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(46)
x = np.random.default_rng(46).normal(size=(32, 8)).astype("float32")


class VQEMA(layers.Layer):
    def __init__(self, k, d, decay=0.9, **kw):
        super().__init__(**kw)
        self.k, self.d, self.decay = k, d, decay

    def build(self, shape):
        self.codebook = self.add_weight(shape=(self.k, self.d), initializer="random_normal",
                                        trainable=False, name="codebook")
        self.cluster_size = self.add_weight(shape=(self.k,), initializer="zeros", trainable=False, name="cluster_size")
        self.embed_sum = self.add_weight(shape=(self.k, self.d), initializer="zeros", trainable=False, name="embed_sum")

    def call(self, z, training=False):
        dist = (tf.reduce_sum(z ** 2, 1, keepdims=True) - 2 * tf.matmul(z, self.codebook, transpose_b=True)
                + tf.reduce_sum(self.codebook ** 2, 1)[None, :])
        idx = tf.argmin(dist, axis=1)
        onehot = tf.one_hot(idx, self.k)
        q = tf.gather(self.codebook, idx)
        if training:
            self.cluster_size.assign(self.decay * self.cluster_size + (1 - self.decay) * tf.reduce_sum(onehot, 0))
            self.embed_sum.assign(self.decay * self.embed_sum
                                  + (1 - self.decay) * tf.matmul(onehot, tf.stop_gradient(z), transpose_a=True))
            self.codebook.assign(self.embed_sum / (self.cluster_size[:, None] + 1e-5))
        self.add_loss(0.25 * tf.reduce_mean(tf.square(z - tf.stop_gradient(q))))
        return z + tf.stop_gradient(q - z)


enc = layers.Dense(4, name="enc")
vq = VQEMA(6, 4, name="vq")
dec = layers.Dense(8, name="dec")
opt = keras.optimizers.Adam(1e-3)


@tf.function
def step(xb):
    with tf.GradientTape() as tape:
        z = enc(xb)
        q = vq(z, training=True)
        loss = tf.reduce_mean(tf.square(dec(q) - xb)) + tf.add_n(vq.losses)
    weights = enc.trainable_weights + dec.trainable_weights
    grads = tape.gradient(loss, weights)
    opt.apply_gradients(zip(grads, weights))
    return grads


grads = step(tf.constant(x))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
