# source: https://github.com/keras-team/keras/issues/7078
# cause: sources-mismatch
# weights: up_conv/kernel
# mode: fit
# summary: a small U-Net decoder wraps its transposed convolution in a keras.layers.Lambda (to pass extra arguments); the Lambda does not own the layer it calls, the summary shows 0 parameters there, the functional model's trainable weights miss the upsampling kernel, and fit never changes it
# lint: yes
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
up = tf.keras.layers.Lambda(lambda t: up_conv(t), name="upsample")(down)  # expect: sources-mismatch primary
merged = tf.keras.layers.Add()([skip, up])
outputs = tf.keras.layers.Conv2D(1, 1, activation="sigmoid", name="mask_out")(merged)
model = tf.keras.Model(inputs, outputs, name="unet")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
before = up_conv.kernel.numpy().copy()
model.fit(images, masks, epochs=2, batch_size=8, verbose=0)
print("in model weights:", any(w is up_conv.kernel for w in model.trainable_weights),
      "changed:", bool(np.any(before != up_conv.kernel.numpy())))
