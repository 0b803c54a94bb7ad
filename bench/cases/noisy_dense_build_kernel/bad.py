# source: https://github.com/tensorflow/tensorflow/issues/32729
# cause: outside-tape
# weights: dqn/noisy/weight_mu, dqn/noisy/weight_sigma, dqn/noisy/bias_mu, dqn/noisy/bias_sigma
# mode: function
# summary: a NoisyDense layer computes its effective kernel once in build(), outside every tape
# lint: yes
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
        eps_w = tf.random.normal(shape, seed=4)
        eps_b = tf.random.normal((self.units,), seed=5)
        self.kernel = self.weight_mu + self.weight_sigma * eps_w  # expect: outside-tape primary
        self.bias = self.bias_mu + self.bias_sigma * eps_b  # expect: outside-tape primary

    def call(self, inputs):
        return tf.matmul(inputs, self.kernel) + self.bias


model = tf.keras.Sequential([tf.keras.layers.Input((4,)), NoisyDense(3, name="noisy")],
                            name="dqn")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(s, q):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(s) - q))
    return tape.gradient(loss, model.trainable_variables)


print(train_step(states, targets))
