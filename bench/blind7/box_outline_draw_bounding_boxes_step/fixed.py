# summary: the boxes are rendered as soft masks, products of sigmoids of the pixel grid against the box edges, which are differentiable in the corners, so every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(21)
x = rng.normal(size=(8, 6)).astype("float32")
lo = rng.uniform(0.1, 0.4, size=(8, 2))
true_boxes = np.concatenate([lo, lo + rng.uniform(0.2, 0.5, size=(8, 2))], axis=1).astype("float32")
grid = tf.linspace(0.0, 1.0, 16)

model = keras.Sequential([keras.Input((6,)),
                          keras.layers.Dense(16, activation="relu", name="box_hidden"),
                          keras.layers.Dense(4, activation="sigmoid", name="box_corners")], name="box_regressor")


def render(boxes, sharpness=30.0):
    y0, x0, y1, x1 = [boxes[:, i, None] for i in range(4)]
    rows = tf.sigmoid(sharpness * (grid - y0)) * tf.sigmoid(sharpness * (y1 - grid))
    cols = tf.sigmoid(sharpness * (grid - x0)) * tf.sigmoid(sharpness * (x1 - grid))
    return rows[:, :, None] * cols[:, None, :]


@tf.function
def train_step(features, wanted):
    with tf.GradientTape() as tape:
        drawn = render(model(features, training=True))
        loss = tf.reduce_mean(tf.square(drawn - render(wanted)))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, true_boxes)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
