# source: https://github.com/tensorflow/tensorflow/issues/42244
# cause: variable-assign
# weights: box_generator/g_hidden/kernel, box_generator/g_hidden/bias, box_generator/g_corners/kernel, box_generator/g_corners/bias
# mode: function
# summary: a GAN generator predicts box corners and a weightless paste layer renders a soft box into a canvas it keeps as a tf.Variable, writing it with assign and returning the variable; the discriminator scores the canvas, but the write is not on the tape, so the generator step gets None for every generator weight
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
SIZE = 10


class BoxPaste(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.canvas = tf.Variable(tf.zeros((4, SIZE, SIZE)), trainable=False, name="canvas")

    def call(self, corners):
        grid = tf.range(SIZE, dtype=tf.float32) / SIZE
        top, left, bottom, right = tf.unstack(corners[:, :, None], axis=1)
        rows = tf.sigmoid(20.0 * (grid - top)) * tf.sigmoid(20.0 * (bottom - grid))
        cols = tf.sigmoid(20.0 * (grid - left)) * tf.sigmoid(20.0 * (right - grid))
        self.canvas.assign(rows[:, :, None] * cols[:, None, :])  # expect: variable-assign primary
        return self.canvas[..., None]  # accept: variable-assign


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
    return tape.gradient(loss, generator.trainable_variables)


grads = generator_step(noise)
print("generator grads are None:", [g is None for g in grads])
