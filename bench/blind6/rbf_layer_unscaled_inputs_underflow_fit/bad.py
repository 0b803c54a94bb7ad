# source: https://taourl.com/read-2206755.html
# cause: zero-at-runtime
# weights: rbf/centers, rbf_readout/kernel
# mode: fit
# summary: an RBF network (a custom layer computing exp(-gamma * |x - c|^2) with centres initialised in [0, 1]) is fed raw sensor readings in the 20..80 range; every squared distance is in the thousands, every exp underflows to exactly 0, so the centres get zero gradients and the readout kernel reads only zeros (only its bias trains)
# lint: no (the layer is correct for scaled inputs; only the inputs' range makes every kernel value underflow)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2206)
x = rng.uniform(20.0, 80.0, size=(64, 3)).astype("float32")
y = (np.cos(x[:, :1] / 10.0)).astype("float32")


class RBF(keras.layers.Layer):
    def __init__(self, units, gamma=1.0, **kwargs):
        super().__init__(**kwargs)
        self.units, self.gamma = units, gamma

    def build(self, input_shape):
        self.centers = self.add_weight(shape=(self.units, input_shape[-1]), name="centers",
                                       initializer=keras.initializers.RandomUniform(0.0, 1.0))

    def call(self, inputs):
        d2 = tf.reduce_sum(tf.square(inputs[:, None, :] - self.centers[None]), axis=-1)
        return tf.exp(-self.gamma * d2)


inputs = keras.Input((3,))
features = RBF(10, name="rbf")(inputs)  # expect: zero-at-runtime primary
outputs = keras.layers.Dense(1, name="rbf_readout")(features)
model = keras.Model(inputs, outputs, name="rbf_net")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
