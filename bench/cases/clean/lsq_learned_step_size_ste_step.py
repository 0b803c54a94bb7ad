# summary: learned step size quantisation of activations: x / s clipped to the int8 range, rounded through a straight-through estimator (v + stop_gradient(round(v) - v)), rescaled by the trainable step s, a tf.function step
# source: https://www.tensorflow.org/model_optimization/guide/quantization/training
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(16)
rng = np.random.default_rng(16)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")


class LsqActivation(layers.Layer):
    def build(self, input_shape):
        self.step = self.add_weight(name="step", shape=(), initializer=keras.initializers.Constant(0.05))

    def call(self, inputs):
        v = tf.clip_by_value(inputs / self.step, -128.0, 127.0)
        v = v + tf.stop_gradient(tf.round(v) - v)
        return v * self.step


model = keras.Sequential([keras.Input((6,)), layers.Dense(8, name="fc1"), LsqActivation(name="quant"),
                          layers.Activation("relu"), layers.Dense(1, name="fc2")], name="qat")
optimizer = keras.optimizers.Adam(1e-2)


@tf.function
def train_step(a, b):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(a, training=True) - b))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


before = [w.numpy().copy() for w in model.trainable_variables]
for _ in range(3):
    train_step(x, y)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
