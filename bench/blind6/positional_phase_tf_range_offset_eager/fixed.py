# summary: the positions are the offset plus an integer range cast to float, so the offset is an ordinary operand and gets a gradient with the projection
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(813)
x = rng.normal(size=(8, 12, 4)).astype("float32")
y = rng.normal(size=(8, 12, 4)).astype("float32")


class PhaseEncoding(keras.layers.Layer):
    def __init__(self):
        super().__init__(name="phase_encoding")
        self.proj = keras.layers.Dense(4, name="phase_proj")

    def build(self, input_shape):
        self.offset = self.add_weight(shape=(), initializer=keras.initializers.Constant(0.5), name="phase_offset")
        self.proj.build(input_shape)

    def call(self, inputs):
        positions = self.offset + tf.cast(tf.range(tf.shape(inputs)[1]), tf.float32)
        encoding = tf.sin(positions[:, None] / tf.constant([1.0, 3.0, 9.0, 27.0]))
        return self.proj(inputs + encoding)


layer = PhaseEncoding()
layer.build((None, 12, 4))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(layer(x) - y))
grads = tape.gradient(loss, layer.trainable_variables)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
