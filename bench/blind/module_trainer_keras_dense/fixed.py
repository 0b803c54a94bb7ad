# summary: the regressor is a keras.Model, whose trainable_variables include its Dense layers
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(84019)
x = tf.constant(rng.normal(size=(32, 3)).astype("float32"))
y = tf.constant(np.sin(x.numpy()).sum(axis=1, keepdims=True))


class Regressor(tf.keras.Model):
    def __init__(self):
        super().__init__(name="regressor")
        self.hidden = tf.keras.layers.Dense(8, activation="tanh", name="hidden")
        self.out = tf.keras.layers.Dense(1, name="out")

    def call(self, inputs):
        return self.out(self.hidden(inputs))


net = Regressor()
net(x[:1])
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
