# source: https://keras.io/examples/vision/depth_estimation/
# summary: a decoder that upsamples with tf.image.resize(method="nearest") inside a Lambda-free custom layer and UpSampling2D(interpolation="nearest"), trained by fit with an L1 loss
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)


class NearestUp(keras.layers.Layer):
    def call(self, x):
        return tf.image.resize(x, tf.shape(x)[1:3] * 2, method="nearest")


inp = keras.Input((16, 16, 3))
h = keras.layers.Conv2D(8, 3, strides=2, padding="same", activation="relu", name="down1")(inp)
h = keras.layers.Conv2D(8, 3, strides=2, padding="same", activation="relu", name="down2")(h)
h = NearestUp(name="up1")(h)
h = keras.layers.Conv2D(8, 3, padding="same", activation="relu", name="dec1")(h)
h = keras.layers.UpSampling2D(interpolation="nearest")(h)
out = keras.layers.Conv2D(1, 3, padding="same", name="depth")(h)
model = keras.Model(inp, out)
model.compile("adam", "mae")
rng = np.random.default_rng(32)
x, y = rng.random((8, 16, 16, 3)).astype("float32"), rng.random((8, 16, 16, 1)).astype("float32")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=1, batch_size=4, verbose=0)
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
