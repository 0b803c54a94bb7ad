# summary: the readings are rescaled into [0, 1] inside the model before the RBF layer, so the kernel values are not all 0 and the centres, the readout kernel and its bias all train
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
scaled = keras.layers.Rescaling(1.0 / 60.0, offset=-20.0 / 60.0, name="to_unit")(inputs)
features = RBF(10, name="rbf")(scaled)
outputs = keras.layers.Dense(1, name="rbf_readout")(features)
model = keras.Model(inputs, outputs, name="rbf_net")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)}
assert len(changed) == 3 and all(changed.values()), changed
