# summary: the paste layer returns the rendered canvas as a tensor (no variable in between), so the discriminator's verdict reaches the box corners and every generator weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
SIZE = 10


class BoxPaste(tf.keras.layers.Layer):
    def call(self, corners):
        grid = tf.range(SIZE, dtype=tf.float32) / SIZE
        top, left, bottom, right = tf.unstack(corners[:, :, None], axis=1)
        rows = tf.sigmoid(20.0 * (grid - top)) * tf.sigmoid(20.0 * (bottom - grid))
        cols = tf.sigmoid(20.0 * (grid - left)) * tf.sigmoid(20.0 * (right - grid))
        return (rows[:, :, None] * cols[:, None, :])[..., None]


generator = tf.keras.Sequential([tf.keras.Input((3,)),
                                 tf.keras.layers.Dense(8, activation="relu", name="g_hidden"),
                                 tf.keras.layers.Dense(4, activation="sigmoid", name="g_corners")],
                                name="box_generator")
paste = BoxPaste()
discriminator = tf.keras.Sequential([tf.keras.Input((SIZE, SIZE, 1)), tf.keras.layers.Flatten(),
                                     tf.keras.layers.Dense(1, name="d_out")], name="critic")
g_optimizer = tf.keras.optimizers.Adam(1e-3)
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
noise = np.random.default_rng(42244).normal(size=(4, 3)).astype("float32")


@tf.function
def generator_step(z):
    with tf.GradientTape() as tape:
        fake_logits = discriminator(paste(generator(z, training=True)))
        loss = bce(tf.ones_like(fake_logits), fake_logits)
    grads = tape.gradient(loss, generator.trainable_variables)
    g_optimizer.apply_gradients(zip(grads, generator.trainable_variables))
    return grads


grads = generator_step(noise)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
