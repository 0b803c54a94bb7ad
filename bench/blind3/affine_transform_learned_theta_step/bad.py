# source: https://github.com/tensorflow/addons/issues/2659
# cause: non-differentiable-op
# weights: locnet/theta/kernel, locnet/theta/bias
# mode: function
# summary: a spatial-transformer registration step warps a (learned, filtered) moving image with keras.ops.image.affine_transform using the 8 projective parameters a localisation network predicts; the underlying ImageProjectiveTransformV3 op has a gradient for the image only, so the filter trains and the localisation network gets None
# lint: no (affine_transform is differentiable in its images: only TensorFlow's gradient registry says the transform gets none)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2659)
fixed_images = rng.uniform(size=(8, 12, 12, 1)).astype("float32")
moving_images = np.roll(fixed_images, shift=2, axis=2)

prefilter = keras.layers.Conv2D(1, 3, padding="same", name="prefilter")
locnet = keras.Sequential([keras.Input((12, 12, 1)), keras.layers.Flatten(),
                           keras.layers.Dense(8, kernel_initializer="zeros",
                                              bias_initializer=keras.initializers.Constant(
                                                  [1, 0, 0, 0, 1, 0, 0, 0]), name="theta")],
                          name="locnet")
prefilter.build((None, 12, 12, 1))
optimizer = keras.optimizers.Adam(1e-2)
sources = prefilter.trainable_variables + locnet.trainable_variables


@tf.function
def register_step(moving, target):
    with tf.GradientTape() as tape:
        transform = locnet(moving)
        warped = keras.ops.image.affine_transform(prefilter(moving), transform)  # expect: non-differentiable-op primary
        loss = tf.reduce_mean(tf.square(warped - target))
    return loss, tape.gradient(loss, sources)


loss, grads = register_step(moving_images, fixed_images)
print("grads are None:", [g is None for g in grads])
