# source: https://github.com/tensorflow/tensorflow/pull/126086
# cause: non-differentiable-op
# rule: TM201
# weights: colorizer/c_hidden/kernel, colorizer/c_hidden/bias, colorizer/c_rgb/kernel, colorizer/c_rgb/bias
# mode: function
# summary: a colourising network adds a saturation-consistency term computed with tf.image.adjust_saturation to its pixel loss; AdjustSaturation has no gradient registry entry, so tape.gradient raises LookupError for every weight although the pixel term alone would reach them
# lint: yes
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


@tf.function
def train_step(inputs, targets, vivid_targets):
    with tf.GradientTape() as tape:
        rgb = net(inputs, training=True)
        pixel = tf.reduce_mean(tf.abs(rgb - targets))
        boosted = tf.image.adjust_saturation(rgb, 1.6)  # expect: non-differentiable-op primary
        consistency = tf.reduce_mean(tf.abs(boosted - vivid_targets))
        loss = pixel + 0.5 * consistency
    grads = tape.gradient(loss, net.trainable_variables)
    optimizer.apply_gradients(zip(grads, net.trainable_variables))
    return loss


print("loss", float(train_step(gray, colour, vivid)))
