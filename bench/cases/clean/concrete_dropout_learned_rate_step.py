# source: https://arxiv.org/abs/1705.07832
# summary: concrete dropout: the drop probability is a trainable logit, the mask is a relaxed Bernoulli (sigmoid of logit noise over a temperature) so the rate gets a gradient; uniform noise from tf.random.uniform, a regulariser on p added to the loss
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)


class ConcreteDropout(keras.layers.Layer):
    def build(self, input_shape):
        self.p_logit = self.add_weight(shape=(), name="p_logit",
                                       initializer=keras.initializers.Constant(-2.0))

    def call(self, x):
        p = tf.sigmoid(self.p_logit)
        u = tf.random.uniform(tf.shape(x), 1e-7, 1 - 1e-7)
        drop = tf.sigmoid((tf.math.log(p) - tf.math.log(1 - p) + tf.math.log(u)
                           - tf.math.log(1 - u)) / 0.1)
        self.add_loss(1e-3 * (p * tf.math.log(p) + (1 - p) * tf.math.log(1 - p)))
        return x * (1 - drop) / (1 - p)


model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(16, activation="relu", name="h"),
                          ConcreteDropout(name="cd"), keras.layers.Dense(1, name="out")])
x = tf.constant(np.random.default_rng(36).normal(size=(32, 6)), tf.float32)
y = tf.constant(np.random.default_rng(37).normal(size=(32, 1)), tf.float32)
with tf.GradientTape() as tape:
    pred = model(x, training=True)
    loss = tf.reduce_mean(tf.square(pred - y)) + tf.add_n(model.losses)
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
