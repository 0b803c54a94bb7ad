# summary: the HSV to RGB conversion is written with differentiable TensorFlow ops (the piecewise-linear channel formula), so the head trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(21510)
grey = tf.constant(rng.uniform(size=(8, 4, 4, 1)).astype("float32"))
target = tf.constant(rng.uniform(size=(8, 4, 4, 3)).astype("float32"))
model = tf.keras.Sequential([tf.keras.Input((4, 4, 1)),
                             tf.keras.layers.Dense(3, activation="sigmoid", name="hsv")],
                            name="coloriser")
optimizer = tf.keras.optimizers.Adam(1e-3)


def hsv_to_rgb(hsv):
    h, s, v = hsv[..., :1], hsv[..., 1:2], hsv[..., 2:]
    k = tf.math.floormod(tf.constant([5.0, 3.0, 1.0]) + 6.0 * h, 6.0)
    return v - v * s * tf.clip_by_value(tf.minimum(k, 4.0 - k), 0.0, 1.0)


@tf.function
def train_step(images, rgb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(hsv_to_rgb(model(images, training=True)) - rgb))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step(grey, target)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
