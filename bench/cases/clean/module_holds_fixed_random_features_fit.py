# source: https://github.com/secondmind-labs/GPflux/pull/51
# summary: a random Fourier feature layer keeps its fixed frequencies in a tf.Module as tf.Variables made with trainable=False; Keras does not track them and nothing should train them, only the output Dense trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(51)

rng = np.random.default_rng(51)
x = rng.uniform(-2, 2, size=(96, 2)).astype("float32")
y = np.sin(2.0 * x[:, :1]) * np.cos(x[:, 1:])


class Frequencies(tf.Module):
    def __init__(self, dims, features):
        super().__init__(name="frequencies")
        self.omega = tf.Variable(tf.random.normal((dims, features)), trainable=False, name="omega")
        self.phase = tf.Variable(tf.random.uniform((features,), 0, 6.28), trainable=False, name="phase")


class FourierFeatures(tf.keras.layers.Layer):
    def __init__(self, features, **kwargs):
        super().__init__(**kwargs)
        self.features = features

    def build(self, input_shape):
        self.basis = Frequencies(input_shape[-1], self.features)

    def call(self, inputs):
        return tf.cos(inputs @ self.basis.omega + self.basis.phase)


model = tf.keras.Sequential([tf.keras.Input((2,)), FourierFeatures(32, name="rff"),
                             tf.keras.layers.Dense(1, name="out")], name="rff_regressor")
model.compile(optimizer=tf.keras.optimizers.Adam(5e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=24, verbose=0)
assert len(model.trainable_weights) == 2
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
