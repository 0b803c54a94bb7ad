# source: https://www.tensorflow.org/api_docs/python/tf/quantization/fake_quant_with_min_max_vars
# summary: quantization-aware training with learned clipping ranges: tf.quantization.fake_quant_with_min_max_vars on activations whose min and max are trainable variables (PACT-style), some activations outside the range so the range variables get gradients
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)


class FakeQuantDense(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(units, name="dense")

    def build(self, input_shape):
        self.dense.build(input_shape)
        self.act_min = tf.Variable(-0.5, name="act_min")
        self.act_max = tf.Variable(0.5, name="act_max")

    def call(self, x):
        h = self.dense(x)
        return tf.quantization.fake_quant_with_min_max_vars(h, self.act_min, self.act_max,
                                                            num_bits=8)


layer = FakeQuantDense(6, name="fq")
head = keras.layers.Dense(1, name="head")
x = tf.constant(np.random.default_rng(12).normal(size=(32, 4)) * 2, tf.float32)
y = tf.constant(np.random.default_rng(13).normal(size=(32, 1)), tf.float32)
layer(x)
head(layer(x))
variables = layer.dense.trainable_variables + [layer.act_min, layer.act_max] + head.trainable_variables
opt = keras.optimizers.SGD(0.01)


@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(head(layer(x)) - y))
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))
    return grads


grads = step()
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
