# source: https://github.com/keras-team/keras-cv/issues/1377
# summary: a hue shift (AdjustHue, no gradient registry entry) is applied to the generated images with a straight-through estimator, x + stop_gradient(shift(x) - x): no gradient ever reaches the op, so nothing raises and every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1377)
codes = rng.normal(size=(8, 5)).astype("float32")
target = rng.uniform(size=(8, 4, 4, 3)).astype("float32")
generator = tf.keras.Sequential([tf.keras.Input((5,)),
                                 tf.keras.layers.Dense(48, activation="sigmoid", name="g_pixels"),
                                 tf.keras.layers.Reshape((4, 4, 3))], name="painter")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(z, images):
    with tf.GradientTape() as tape:
        fake = generator(z, training=True)
        shifted = tf.image.adjust_hue(fake, 0.1)
        jittered = fake + tf.stop_gradient(shifted - fake)
        loss = tf.reduce_mean(tf.square(jittered - images))
    grads = tape.gradient(loss, generator.trainable_variables)
    optimizer.apply_gradients(zip(grads, generator.trainable_variables))
    return grads


grads = train_step(codes, target)
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
