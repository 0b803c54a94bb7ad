# source: https://github.com/tensorflow/tensorflow/issues/30413
# cause: non-differentiable-op
# weights: angle_net/angle/kernel, angle_net/angle/bias
# mode: eager
# summary: an upright-alignment network predicts a rotation angle per image, the script turns it into a projective transform and rotates the image with tf.raw_ops.ImageProjectiveTransformV3 before comparing with the upright template; the op's gradient covers the images only, so the angle network gets None
# lint: no (the transform op is differentiable in its images: only TensorFlow's gradient registry says the transforms get none)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(30413)
template = np.zeros((9, 9), "float32")
template[1:8, 4] = 1.0
tilted = np.stack([np.rot90(template, k=1)] * 4)[..., None].astype("float32")
upright = np.stack([template] * 4)[..., None]

angle_net = tf.keras.Sequential([tf.keras.Input((9, 9, 1)), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(1, name="angle")], name="angle_net")


def rotation_transforms(angles, size=9):
    c, s = tf.cos(angles), tf.sin(angles)
    centre = (size - 1) / 2.0
    x_off = centre - c * centre + s * centre
    y_off = centre - s * centre - c * centre
    zeros = tf.zeros_like(angles)
    return tf.concat([c, -s, x_off, s, c, y_off, zeros, zeros], axis=1)


with tf.GradientTape() as tape:
    transforms = rotation_transforms(angle_net(tilted))
    rotated = tf.raw_ops.ImageProjectiveTransformV3(  # expect: non-differentiable-op primary
        images=tilted, transforms=transforms, output_shape=[9, 9], fill_value=0.0,
        interpolation="BILINEAR")
    loss = tf.reduce_mean(tf.square(rotated - upright))
grads = tape.gradient(loss, angle_net.trainable_variables)
print("grads are None:", [g is None for g in grads])
