# summary: PixelCNN's masked convolution: a Conv2D whose kernel is multiplied by a fixed causal mask (type A: the centre pixel too) in call, so masked entries get zero gradient by design, then a type-B layer and a 1x1 head, fit on binarised images
# source: https://keras.io/examples/generative/pixelcnn/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(35)
images = (np.random.default_rng(35).uniform(size=(32, 8, 8, 1)) > 0.5).astype("float32")


class PixelConvLayer(layers.Layer):
    def __init__(self, mask_type, **kwargs):
        name = kwargs.pop("name", None)
        super().__init__(name=name)
        self.mask_type = mask_type
        self.conv = layers.Conv2D(**kwargs)

    def build(self, input_shape):
        self.conv.build(input_shape)
        kernel_shape = self.conv.kernel.shape
        mask = np.zeros(shape=kernel_shape, dtype="float32")
        mask[: kernel_shape[0] // 2, ...] = 1.0
        mask[kernel_shape[0] // 2, : kernel_shape[1] // 2, ...] = 1.0
        if self.mask_type == "B":
            mask[kernel_shape[0] // 2, kernel_shape[1] // 2, ...] = 1.0
        self.mask = tf.constant(mask)

    def call(self, inputs):
        self.conv.kernel.assign(self.conv.kernel * self.mask)
        return self.conv(inputs)


inputs = keras.Input(shape=(8, 8, 1))
x = PixelConvLayer(mask_type="A", filters=8, kernel_size=5, activation="relu", padding="same", name="conv_a")(inputs)
x = PixelConvLayer(mask_type="B", filters=8, kernel_size=3, activation="relu", padding="same", name="conv_b")(x)
out = layers.Conv2D(1, 1, activation="sigmoid", name="out")(x)
pixel_cnn = keras.Model(inputs, out)
pixel_cnn.compile(optimizer=keras.optimizers.Adam(1e-3), loss="binary_crossentropy")
before = [w.numpy().copy() for w in pixel_cnn.trainable_variables]
pixel_cnn.fit(images, images, batch_size=16, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, pixel_cnn.trainable_variables))
