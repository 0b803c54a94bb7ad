# source: https://github.com/keras-team/keras/issues/11736
# summary: a custom layer wraps a Dense it creates once in __init__ and calls in call(); Keras tracks the inner Dense as a sublayer, so fit trains it with the rest of the model
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(11736)
x = rng.normal(size=(96, 4)).astype("float32")
y = np.sin(x[:, :1] + x[:, 1:2]).astype("float32")


class GatedDense(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.inner = tf.keras.layers.Dense(units, name="inner")
        self.gate = tf.keras.layers.Dense(units, activation="sigmoid", name="gate")

    def call(self, inputs):
        return self.inner(inputs) * self.gate(inputs)


model = tf.keras.Sequential([tf.keras.Input((4,)), GatedDense(8, name="gated"),
                             tf.keras.layers.Dense(1, name="out")], name="gated_net")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=3, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 6
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
