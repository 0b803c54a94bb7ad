# summary: the learned scale starts at 1 (initializer="ones"), so the division passes the logits and their gradients through and every weight changes
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
        self.scale = self.add_weight(shape=(), name="scale", initializer="ones")
        self.bias = self.add_weight(shape=(2,), name="bias", initializer="zeros")

    def call(self, inputs):
        return tf.math.divide_no_nan(tf.matmul(inputs, self.kernel), self.scale) + self.bias


model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="relu", name="tc_hidden"),
                          ScaledLogits(name="tc_logits")], name="temp_clf")
model.compile(optimizer=keras.optimizers.Adam(1e-2),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
assert len(before) == 5
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
