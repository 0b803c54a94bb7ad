# source: https://github.com/JiahuiYu/generative_inpainting/issues/42
# summary: an inpainting step pastes the known pixels into the prediction with tf.tensor_scatter_nd_update (the pasted pixels carry no gradient) and scores the composite in the hole plus the raw prediction on the known region; both terms read generator output, so every generator weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(42)
clean = rng.uniform(size=(4, 8, 8, 1)).astype("float32")
hole = np.zeros((4, 8, 8, 1), dtype=bool)
hole[:, 1:5, 3:7, :] = True
known_idx = np.argwhere(~hole).astype("int32")
hole_idx = np.argwhere(hole).astype("int32")
damaged = np.where(hole, 0.0, clean).astype("float32")

generator = tf.keras.Sequential([
    tf.keras.Input((8, 8, 1)),
    tf.keras.layers.Conv2D(6, 3, padding="same", activation="relu", name="fill_conv1"),
    tf.keras.layers.Conv2D(1, 3, padding="same", activation="sigmoid", name="fill_conv2"),
], name="filler")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(masked, target):
    with tf.GradientTape() as tape:
        pred = generator(masked, training=True)
        composite = tf.tensor_scatter_nd_update(pred, known_idx, tf.gather_nd(target, known_idx))
        hole_err = tf.gather_nd(composite, hole_idx) - tf.gather_nd(target, hole_idx)
        known_err = tf.gather_nd(pred, known_idx) - tf.gather_nd(target, known_idx)
        loss = tf.reduce_mean(tf.square(hole_err)) + 0.2 * tf.reduce_mean(tf.abs(known_err))
    grads = tape.gradient(loss, generator.trainable_variables)
    optimizer.apply_gradients(zip(grads, generator.trainable_variables))
    return grads


grads = train_step(damaged, clean)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
