# source: https://github.com/tensorflow/tensorflow/issues/22977
# summary: quantisation-aware training with tf.quantization.fake_quant_with_min_max_vars and a learned clipping range that covers the activations; the range and the layers around it all get gradients
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(22977)
x = tf.constant(rng.normal(size=(64, 4)).astype("float32"))
y = tf.constant(np.tanh(x.numpy() @ rng.normal(size=(4, 1))).astype("float32"))


class LearnedFakeQuant(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.low = self.add_weight(shape=(), initializer=tf.keras.initializers.Constant(-1.0),
                                   name="low")
        self.high = self.add_weight(shape=(), initializer=tf.keras.initializers.Constant(1.0),
                                    name="high")

    def call(self, inputs):
        return tf.quantization.fake_quant_with_min_max_vars(inputs, self.low, self.high,
                                                            num_bits=4)


model = tf.keras.Sequential([tf.keras.Input((4,)),
                             tf.keras.layers.Dense(8, activation="tanh", name="pre"),
                             tf.keras.layers.Lambda(lambda t: 1.2 * t),
                             LearnedFakeQuant(name="quant"),
                             tf.keras.layers.Dense(1, name="out")], name="qat")


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(features, training=True) - targets))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, y)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
