# summary: an attention layer that keeps its last attention weights (computed from the weights) in a non-trainable variable with assign inside the forward pass, only for plotting after training; the loss never reads that variable, a @tf.function step
# source: https://keras.io/examples/nlp/neural_machine_translation_with_transformer/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(70)
rng = np.random.default_rng(70)
x = rng.normal(size=(8, 5, 6)).astype("float32")
y = rng.integers(0, 2, size=(8,)).astype("int32")


class ScoredAttention(layers.Layer):
    def build(self, shape):
        d = shape[-1]
        self.wq = self.add_weight(shape=(d, d), initializer="glorot_uniform", name="wq")
        self.wk = self.add_weight(shape=(d, d), initializer="glorot_uniform", name="wk")
        self.last_scores = self.add_weight(shape=(shape[1], shape[1]), initializer="zeros",
                                           trainable=False, name="last_scores")

    def call(self, x):
        q, k = tf.matmul(x, self.wq), tf.matmul(x, self.wk)
        scores = tf.nn.softmax(tf.matmul(q, k, transpose_b=True) / 6 ** 0.5, axis=-1)
        self.last_scores.assign(tf.reduce_mean(scores, axis=0))
        return tf.matmul(scores, x)


att = ScoredAttention(name="att")
head = layers.Dense(2, name="head")
opt = keras.optimizers.Adam(1e-2)


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        h = tf.reduce_mean(att(xb), axis=1)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(yb, head(h)))
    weights = att.trainable_weights + head.trainable_weights
    grads = tape.gradient(loss, weights)
    opt.apply_gradients(zip(grads, weights))
    return grads


grads = step(x, y)
print("attention row sums", np.round(att.last_scores.numpy().sum(-1), 3))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
