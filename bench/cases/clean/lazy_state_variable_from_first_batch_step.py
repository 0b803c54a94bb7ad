# summary: a layer that lazily creates a non-trainable running-mean buffer with tf.Variable(tf.zeros_like(h[0])) on its first call (shape taken from the activations) and updates it with assign each call; a @tf.function step trains the layer's own kernel
# source: https://www.tensorflow.org/guide/function#creating_tfvariables
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(72)
rng = np.random.default_rng(72)
x = rng.normal(size=(16, 6)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")


class Tracked(tf.Module):
    def __init__(self):
        super().__init__()
        self.kernel = tf.Variable(rng.normal(size=(6, 8)).astype("float32") * 0.3, name="kernel")
        self.out = tf.Variable(rng.normal(size=(8, 1)).astype("float32") * 0.3, name="out")
        self.running = None

    def __call__(self, x):
        h = tf.nn.tanh(tf.matmul(x, self.kernel))
        if self.running is None:
            self.running = tf.Variable(tf.zeros_like(h[0]), trainable=False, name="running")
        self.running.assign(0.9 * self.running + 0.1 * tf.reduce_mean(h, axis=0))
        return tf.matmul(h, self.out)


net = Tracked()
opt = keras.optimizers.SGD(0.05)


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(net(xb) - yb))
    grads = tape.gradient(loss, net.trainable_variables)
    opt.apply_gradients(zip(grads, net.trainable_variables))
    return grads


for _ in range(2):
    grads = step(x, y)
assert len(net.trainable_variables) == 2
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
