# summary: the noisy kernel is computed in call(), so every step records it
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(20)
states = rng.normal(size=(16, 4)).astype("float32")
targets = rng.normal(size=(16, 3)).astype("float32")


class NoisyDense(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        shape = (input_shape[-1], self.units)
        self.weight_mu = self.add_weight(name="weight_mu", shape=shape)
        self.weight_sigma = self.add_weight(name="weight_sigma", shape=shape, initializer="ones")
        self.bias_mu = self.add_weight(name="bias_mu", shape=(self.units,))
        self.bias_sigma = self.add_weight(name="bias_sigma", shape=(self.units,),
                                          initializer="ones")
        self.eps_w = tf.random.normal(shape, seed=4)
        self.eps_b = tf.random.normal((self.units,), seed=5)

    def call(self, inputs):
        kernel = self.weight_mu + self.weight_sigma * self.eps_w
        bias = self.bias_mu + self.bias_sigma * self.eps_b
        return tf.matmul(inputs, kernel) + bias


model = tf.keras.Sequential([tf.keras.layers.Input((4,)), NoisyDense(3, name="noisy")],
                            name="dqn")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(s, q):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(s) - q))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(states, targets)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
