# summary: the reconstruction error is measured in the hole (hole_idx), where the composite holds the generator's prediction, so the loss is non-zero and every generator weight gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4)
clean = rng.uniform(size=(4, 8, 8, 1)).astype("float32")
hole = np.zeros((4, 8, 8, 1), dtype=bool)
hole[:, 2:6, 2:6, :] = True
known_idx = np.argwhere(~hole).astype("int32")
hole_idx = np.argwhere(hole).astype("int32")
damaged = np.where(hole, 0.0, clean).astype("float32")

generator = tf.keras.Sequential([
    tf.keras.Input((8, 8, 1)),
    tf.keras.layers.Conv2D(6, 3, padding="same", activation="relu", name="inp_conv1"),
    tf.keras.layers.Conv2D(1, 3, padding="same", activation="sigmoid", name="inp_conv2"),
], name="inpainter")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(masked, target):
    with tf.GradientTape() as tape:
        pred = generator(masked, training=True)
        composite = tf.tensor_scatter_nd_update(pred, known_idx, tf.gather_nd(target, known_idx))
        error = tf.gather_nd(composite, hole_idx) - tf.gather_nd(target, hole_idx)
        loss = tf.reduce_mean(tf.square(error))
    grads = tape.gradient(loss, generator.trainable_variables)
    optimizer.apply_gradients(zip(grads, generator.trainable_variables))
    return loss, grads


loss, grads = train_step(damaged, clean)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
