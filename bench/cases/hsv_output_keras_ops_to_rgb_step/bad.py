# source: https://github.com/NVlabs/stylegan3/issues/210
# cause: non-differentiable-op
# weights: hsv_net/hsv/kernel, hsv_net/hsv/bias
# mode: function
# summary: an image network is made to predict in HSV colour space and its output is converted back with keras.ops.image.hsv_to_rgb so the loss compares RGB pixels; on the TensorFlow backend that is tf.image.hsv_to_rgb (HSVToRGB has no registered gradient), so every weight gets None
# lint: yes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(210)
images = rng.uniform(size=(4, 6, 6, 3)).astype("float32")
targets = rng.uniform(size=(4, 6, 6, 3)).astype("float32")

model = keras.Sequential([keras.Input((6, 6, 3)),
                          keras.layers.Conv2D(3, 1, activation="sigmoid", name="hsv")],
                         name="hsv_net")
optimizer = keras.optimizers.Adam(1e-2)


@tf.function
def train_step(batch, wanted):
    with tf.GradientTape() as tape:
        hsv = model(batch, training=True)
        rgb = keras.ops.image.hsv_to_rgb(hsv)  # expect: non-differentiable-op primary
        loss = keras.ops.mean(keras.ops.square(rgb - wanted))
    grads = tape.gradient(loss, model.trainable_variables)
    return loss, grads


loss, grads = train_step(images, targets)
print("grads are None:", [g is None for g in grads])
