# summary: the Hurwitz zeta tail is a truncated sum of (n + q)^-s written with TensorFlow ops, differentiable in s and q
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(60041)
x = tf.constant(rng.uniform(0.0, 1.0, size=(32, 2)).astype("float32"))
y = tf.constant((0.5 + x.numpy().sum(axis=1, keepdims=True)) ** -1.0)


class ZetaTail(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.exponent = self.add_weight(shape=(), initializer=tf.keras.initializers.Constant(2.5),
                                        name="exponent")

    def call(self, q):
        n = tf.range(200, dtype=q.dtype)
        return tf.reduce_sum(tf.pow(q + n, -self.exponent), axis=-1, keepdims=True)


model = tf.keras.Sequential([tf.keras.Input((2,)),
                             tf.keras.layers.Dense(1, activation="softplus", name="offset"),
                             tf.keras.layers.Lambda(lambda t: t + 1.0),
                             ZetaTail(name="zipf")], name="zipf")


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(features) - targets))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, y)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
