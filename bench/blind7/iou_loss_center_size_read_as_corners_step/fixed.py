# summary: the (cx, cy, w, h) output is converted to corners before the IoU loss, the boxes overlap the true boxes and every weight gets a gradient
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(186512)
x = rng.normal(size=(32, 6)).astype("float32")
corner = rng.uniform(0.4, 0.6, size=(32, 2))
true_boxes = np.concatenate([corner, corner + rng.uniform(0.1, 0.3, size=(32, 2))], axis=1).astype("float32")

model = keras.Sequential([keras.Input((6,)),
                          keras.layers.Dense(16, activation="relu", name="box_features"),
                          keras.layers.Dense(4, activation="sigmoid", name="box_params")], name="box_net")


def iou_loss(pred, true):
    ix1 = tf.maximum(pred[:, 0], true[:, 0])
    iy1 = tf.maximum(pred[:, 1], true[:, 1])
    ix2 = tf.minimum(pred[:, 2], true[:, 2])
    iy2 = tf.minimum(pred[:, 3], true[:, 3])
    inter = tf.maximum(ix2 - ix1, 0.0) * tf.maximum(iy2 - iy1, 0.0)
    area_p = tf.abs((pred[:, 2] - pred[:, 0]) * (pred[:, 3] - pred[:, 1]))
    area_t = (true[:, 2] - true[:, 0]) * (true[:, 3] - true[:, 1])
    return tf.reduce_mean(1.0 - inter / (area_p + area_t - inter + 1e-6))


@tf.function
def train_step(features, boxes):
    with tf.GradientTape() as tape:
        raw = model(features, training=True)
        center, half = raw[:, :2], 0.15 * raw[:, 2:]
        pred = tf.concat([center - half, center + half], axis=1)
        loss = iou_loss(pred, boxes)
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, true_boxes)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
