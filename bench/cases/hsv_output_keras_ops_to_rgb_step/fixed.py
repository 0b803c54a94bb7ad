# summary: the network predicts RGB directly and the loss reads its output (HSV is only computed for a colour metric, outside the tape), so every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(210)
images = rng.uniform(size=(4, 6, 6, 3)).astype("float32")
targets = rng.uniform(size=(4, 6, 6, 3)).astype("float32")

model = keras.Sequential([keras.Input((6, 6, 3)),
                          keras.layers.Conv2D(3, 1, activation="sigmoid", name="rgb")],
                         name="rgb_net")
optimizer = keras.optimizers.Adam(1e-2)


@tf.function
def train_step(batch, wanted):
    with tf.GradientTape() as tape:
        rgb = model(batch, training=True)
        loss = keras.ops.mean(keras.ops.square(rgb - wanted))
    grads = tape.gradient(loss, model.trainable_variables)
    hue = keras.ops.mean(keras.ops.image.rgb_to_hsv(rgb)[..., 0])
    return loss, grads, hue


loss, grads, hue = train_step(images, targets)
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
