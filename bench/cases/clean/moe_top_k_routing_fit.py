# summary: a mixture-of-experts layer: router softmax, tf.math.top_k picks 2 experts per token, their probabilities (top_k values) weight the experts' outputs gathered by the indices
# source: https://keras.io/examples/nlp/text_classification_with_switch_transformer/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(51)
rng = np.random.default_rng(51)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
E, K = 4, 2


class TopKMoE(layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.units = units
        self.router = layers.Dense(E, name="router")
        self.experts = [layers.Dense(units, activation="relu", name=f"expert_{i}") for i in range(E)]

    def call(self, t):
        probs = tf.nn.softmax(self.router(t), axis=-1)
        top = tf.math.top_k(probs, k=K)
        gates = top.values / tf.reduce_sum(top.values, axis=-1, keepdims=True)
        outs = tf.stack([e(t) for e in self.experts], axis=1)
        chosen = tf.gather(outs, top.indices, batch_dims=1)
        balance = tf.reduce_sum(tf.reduce_mean(probs, 0) ** 2) * E
        self.add_loss(0.01 * balance)
        return tf.reduce_sum(gates[..., None] * chosen, axis=1)


model = keras.Sequential([keras.Input((6,)), TopKMoE(8), layers.Dense(1)])
model.compile(keras.optimizers.Adam(1e-2), "mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=8, epochs=2, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
