# source: https://github.com/keras-team/tf-keras/issues/513
# cause: sources-mismatch
# rule: TM114
# weights: gain, shift
# mode: fit
# summary: a custom layer keeps its scale and offset as raw tf.Variables; Keras 3 does not track them, fit never trains them
# lint: yes
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)


class Affine(keras.layers.Layer):
    def __init__(self, width, **kwargs):
        super().__init__(**kwargs)
        self.gain = tf.Variable(tf.ones((width,)), name="gain")  # expect: sources-mismatch primary
        self.shift = tf.Variable(tf.zeros((width,)), name="shift")  # expect: sources-mismatch primary

    def call(self, inputs):
        return inputs * self.gain + self.shift


rng = np.random.default_rng(16797)
x = rng.normal(size=(32, 5)).astype("float32")
y = (2.0 * x[:, :1] + 0.5).astype("float32")
affine = Affine(5, name="affine")
model = keras.Sequential([keras.Input((5,)), affine, keras.layers.Dense(1, name="head")])
model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
before = affine.gain.numpy().copy()
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print("gain changed:", bool(np.any(before != affine.gain.numpy())))
