# source: https://discuss.pytorch.org/t/my-simplest-neural-network-object-detector-not-working-well/186512
# cause: zero-at-runtime
# weights: box_net/box_features/kernel, box_net/box_features/bias, box_net/box_params/kernel, box_net/box_params/bias
# mode: function
# summary: a box regressor outputs (cx, cy, w, h) but the hand-written IoU loss reads its output as corners (x1, y1, x2, y2); the "x2" it reads (a small width) lies left of every true box, the clipped intersection is exactly 0 for every sample, the loss is a constant 1 and every weight gets an exact zero gradient
# lint: no (the format mismatch is in what the numbers mean, not in the code)
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
        pred = tf.concat([raw[:, :2], 0.3 * raw[:, 2:]], axis=1)  # expect: zero-at-runtime primary
        loss = iou_loss(pred, boxes)  # accept: zero-at-runtime
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, true_boxes)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(model.trainable_variables, grads)})
