# summary: a loss layer that counts its calls in a non-trainable tf.Variable (assign_add inside the tape) and ramps an auxiliary term in with min(1, step / 100) read from that counter, a @tf.function step
# source: https://keras.io/examples/generative/vq_vae/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(47)
rng = np.random.default_rng(47)
x = rng.normal(size=(16, 6)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")


class RampedL1(layers.Layer):
    def build(self, shape):
        self.step = self.add_weight(shape=(), initializer="zeros", trainable=False, name="step")

    def call(self, pred, target):
        self.step.assign_add(1.0)
        ramp = tf.minimum(1.0, self.step / 100.0)
        return tf.reduce_mean(tf.square(pred - target)) + ramp * tf.reduce_mean(tf.abs(pred - target))


model = keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="tanh", name="h"),
                          layers.Dense(1, name="out")])
crit = RampedL1(name="crit")
opt = keras.optimizers.SGD(0.05)


@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        loss = crit(model(xb, training=True), yb)
    grads = tape.gradient(loss, model.trainable_weights)
    opt.apply_gradients(zip(grads, model.trainable_weights))
    return grads


for _ in range(2):
    grads = step(x, y)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
