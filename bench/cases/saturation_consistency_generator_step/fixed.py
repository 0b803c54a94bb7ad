# summary: the saturation boost is written with differentiable ops (a mix with the per-pixel grey level), so both terms reach every weight
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(126086)
gray = rng.uniform(size=(8, 4, 4, 1)).astype("float32")
colour = rng.uniform(size=(8, 4, 4, 3)).astype("float32")
vivid = tf.image.adjust_saturation(tf.constant(colour), 1.6)
net = tf.keras.Sequential([tf.keras.Input((4, 4, 1)),
                           tf.keras.layers.Dense(6, activation="relu", name="c_hidden"),
                           tf.keras.layers.Dense(3, activation="sigmoid", name="c_rgb")],
                          name="colorizer")
optimizer = tf.keras.optimizers.Adam(1e-2)


def saturate(rgb, factor):
    grey = tf.reduce_mean(rgb, axis=-1, keepdims=True)
    return tf.clip_by_value(grey + factor * (rgb - grey), 0.0, 1.0)


@tf.function
def train_step(inputs, targets, vivid_targets):
    with tf.GradientTape() as tape:
        rgb = net(inputs, training=True)
        pixel = tf.reduce_mean(tf.abs(rgb - targets))
        boosted = saturate(rgb, 1.6)
        consistency = tf.reduce_mean(tf.abs(boosted - vivid_targets))
        loss = pixel + 0.5 * consistency
    grads = tape.gradient(loss, net.trainable_variables)
    optimizer.apply_gradients(zip(grads, net.trainable_variables))
    return grads


grads = train_step(gray, colour, vivid)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
