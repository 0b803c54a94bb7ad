# source: https://github.com/Jireh-Jam/R-MNet-Inpainting-keras/issues/4
# cause: zero-at-runtime
# weights: inpainter/inp_conv1/kernel, inpainter/inp_conv1/bias, inpainter/inp_conv2/kernel, inpainter/inp_conv2/bias
# mode: function
# summary: an inpainting step pastes the known pixels back into the prediction with tf.tensor_scatter_nd_update and then measures the reconstruction error at those same known pixels (the mask inverted); the pasted values equal the target, the loss is exactly 0 and every generator weight gets an all-zero gradient
# lint: no (zero at run time: which pixels the loss reads is decided by index arrays)
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
        error = tf.gather_nd(composite, known_idx) - tf.gather_nd(target, known_idx)  # expect: zero-at-runtime primary
        loss = tf.reduce_mean(tf.square(error))
    grads = tape.gradient(loss, generator.trainable_variables)
    optimizer.apply_gradients(zip(grads, generator.trainable_variables))
    return loss, grads


loss, grads = train_step(damaged, clean)
print("loss:", float(loss), "all-zero grads:",
      [float(tf.reduce_max(tf.abs(g))) == 0.0 for g in grads])
