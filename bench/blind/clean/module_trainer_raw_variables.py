# source: https://github.com/tensorflow/tensorflow/issues/27046
# summary: a tf.Module regressor whose weights are plain tf.Variable attributes (no Keras layers): tf.Module tracks them, its trainable_variables are the step's sources and every one trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(27046)
x = tf.constant(rng.normal(size=(32, 3)).astype("float32"))
y = tf.constant(np.sin(x.numpy()).sum(axis=1, keepdims=True))


class Regressor(tf.Module):
    def __init__(self):
        super().__init__(name="regressor")
        self.w1 = tf.Variable(rng.normal(0, 0.5, size=(3, 8)).astype("float32"), name="w1")
        self.b1 = tf.Variable(tf.zeros([8]), name="b1")
        self.w2 = tf.Variable(rng.normal(0, 0.5, size=(8, 1)).astype("float32"), name="w2")
        self.b2 = tf.Variable(tf.zeros([1]), name="b2")

    def __call__(self, inputs):
        return tf.tanh(inputs @ self.w1 + self.b1) @ self.w2 + self.b2


net = Regressor()
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(net(features) - targets))
    grads = tape.gradient(loss, net.trainable_variables)
    optimizer.apply_gradients(zip(grads, net.trainable_variables))
    return grads


grads = train_step(x, y)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
