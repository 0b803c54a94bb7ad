# summary: a Keras layer that counts the batches it has seen in a tf.Variable left at the default trainable=True (state, updated with assign_add, never a weight) and scales its noise by that count, a @tf.function step
# source: https://keras.io/guides/making_new_layers_and_models_via_subclassing/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(65)
rng = np.random.default_rng(65)
x = rng.normal(size=(16, 5)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")


class AnnealedNoise(layers.Layer):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.seen = tf.Variable(0.0, name="seen")

    def call(self, x, training=None):
        if training:
            self.seen.assign_add(1.0)
            return x + tf.random.normal(tf.shape(x), stddev=0.1) / (1.0 + self.seen)
        return x


model = keras.Sequential([keras.Input((5,)), AnnealedNoise(name="noise"),
                          layers.Dense(8, activation="tanh", name="h"), layers.Dense(1, name="out")])
opt = keras.optimizers.SGD(0.05)


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(xb, training=True) - yb))
    grads = tape.gradient(loss, model.trainable_weights)
    opt.apply_gradients(zip(grads, model.trainable_weights))
    return grads


for _ in range(2):
    grads = step(x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
