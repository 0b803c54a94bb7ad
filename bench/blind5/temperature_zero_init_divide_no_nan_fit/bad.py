# source: https://github.com/tensorflow/tensorflow/issues/60715
# cause: zero-at-runtime
# weights: temp_clf/tc_hidden/kernel, temp_clf/tc_hidden/bias, temp_clf/tc_logits/kernel, temp_clf/tc_logits/scale
# mode: fit
# summary: a classifier head divides its logits by a learned scale created with initializer="zeros" and uses tf.math.divide_no_nan "to be safe"; dividing by exactly 0 returns 0 with a zero gradient for both operands, so the logits are all 0, the loss is constant and every weight but the output bias gets exactly zero gradients: fit never changes them
# lint: no (the zero comes from an initializer value)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(60715)
x = rng.normal(size=(96, 5)).astype("float32")
y = (x[:, 0] + x[:, 1] > 0).astype("int32")


class ScaledLogits(keras.layers.Layer):
    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], 2), name="kernel")
        self.scale = self.add_weight(shape=(), name="scale", initializer="zeros")  # expect: zero-at-runtime primary
        self.bias = self.add_weight(shape=(2,), name="bias", initializer="zeros")

    def call(self, inputs):
        return tf.math.divide_no_nan(tf.matmul(inputs, self.kernel), self.scale) + self.bias  # accept: zero-at-runtime


model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="relu", name="tc_hidden"),
                          ScaledLogits(name="tc_logits")], name="temp_clf")
model.compile(optimizer=keras.optimizers.Adam(1e-2),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
