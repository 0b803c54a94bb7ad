# source: https://github.com/tensorflow/tensorflow/pull/61459
# summary: a layer learns the offset q of the Hurwitz zeta function tf.math.zeta(s, q) at a fixed exponent s; zeta has a registered gradient in q, so the offset and the layers before it all train
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(61459)
x = tf.constant(rng.uniform(0.0, 1.0, size=(32, 2)).astype("float32"))
y = tf.constant((1.0 + x.numpy().sum(axis=1, keepdims=True)) ** -1.5)


class ZetaOffset(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.shift = self.add_weight(shape=(), initializer="ones", name="shift")

    def call(self, q):
        return tf.math.zeta(2.5, q + tf.nn.softplus(self.shift))


model = tf.keras.Sequential([tf.keras.Input((2,)),
                             tf.keras.layers.Dense(1, activation="softplus", name="q"),
                             ZetaOffset(name="zeta")], name="tail")


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(features) - targets))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, y)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
