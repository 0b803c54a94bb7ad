# summary: the predicted shift moves a crop box and the image is resampled with tf.image.crop_and_resize, whose gradient reaches the boxes, so the shift network trains together with the intensity conv
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
        shift = 0.25 * shift_net(tf.concat([moving, fixed], -1))
        boxes = tf.concat([shift, 1.0 + shift], axis=1)
        warped = tf.image.crop_and_resize(intensity(moving), boxes,
                                          tf.range(tf.shape(moving)[0]), (16, 16))
        loss = tf.reduce_mean(tf.square(warped - fixed))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(moving_img, fixed_img)
assert len(grads) == 6
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
