# summary: the transposed convolution is applied as a layer of the functional graph (no Lambda around it), so the model owns its kernel and fit changes every weight
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(7078)
images = rng.uniform(size=(32, 8, 8, 1)).astype("float32")
masks = (images > 0.5).astype("float32")

up_conv = tf.keras.layers.Conv2DTranspose(4, 3, strides=2, padding="same", use_bias=False,
                                          activation="relu", name="up_conv")
inputs = tf.keras.Input((8, 8, 1))
skip = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu", name="enc_conv")(inputs)
down = tf.keras.layers.MaxPooling2D()(skip)
up = up_conv(down)
merged = tf.keras.layers.Add()([skip, up])
outputs = tf.keras.layers.Conv2D(1, 1, activation="sigmoid", name="mask_out")(merged)
model = tf.keras.Model(inputs, outputs, name="unet")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
weights = model.trainable_weights
before = [w.numpy().copy() for w in weights]
model.fit(images, masks, epochs=2, batch_size=8, verbose=0)
assert len(weights) == 5
assert all(np.any(b != w.numpy()) for b, w in zip(before, weights, strict=True))
