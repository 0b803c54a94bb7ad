# source: https://github.com/tensorflow/tensorflow/issues/22760
# cause: non-differentiable-op
# weights: shift_net/shift_conv/kernel, shift_net/shift_conv/bias, shift_net/shift_out/kernel, shift_net/shift_out/bias
# mode: function
# summary: an image-registration step lets a small network predict the (dy, dx) shift that aligns a moving image to a fixed one and applies it with tf.raw_ops.ScaleAndTranslate; that op's registered gradient covers the images only (None for scale and translation), so the intensity conv trains while the shift network gets None
# lint: no (a raw op whose gradient is defined for some inputs only: nothing in the source says which)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(22760)
fixed_img = rng.uniform(size=(4, 16, 16, 1)).astype("float32")
moving_img = np.roll(fixed_img, shift=(2, -1), axis=(1, 2))

shift_net = tf.keras.Sequential([
    tf.keras.Input((16, 16, 2)),
    tf.keras.layers.Conv2D(4, 3, activation="relu", name="shift_conv"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(2, activation="tanh", name="shift_out"),
], name="shift_net")
intensity = tf.keras.layers.Conv2D(1, 1, name="intensity")
intensity.build((None, 16, 16, 1))
sources = shift_net.trainable_variables + intensity.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(moving, fixed):
    with tf.GradientTape() as tape:
        shift = 4.0 * tf.reduce_mean(shift_net(tf.concat([moving, fixed], -1)), axis=0)
        warped = tf.raw_ops.ScaleAndTranslate(  # expect: non-differentiable-op primary
            images=intensity(moving), size=[16, 16], scale=[1.0, 1.0], translation=shift,
            kernel_type="triangle", antialias=False)
        loss = tf.reduce_mean(tf.square(warped - fixed))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(moving_img, fixed_img)
print("grads are None:", [g is None for g in grads])
