# source: https://www.tensorflow.org/api_docs/python/tf/image/draw_bounding_boxes
# cause: non-differentiable-op
# weights: box_regressor/box_hidden/kernel, box_regressor/box_hidden/bias, box_regressor/box_corners/kernel, box_regressor/box_corners/bias
# mode: function
# summary: a box regressor is trained by rendering its predicted boxes onto blank canvases with tf.image.draw_bounding_boxes and comparing the drawings with drawings of the true boxes; DrawBoundingBoxesV2 has no registered gradient, so tape.gradient in the traced step raises LookupError
# lint: yes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(21)
x = rng.normal(size=(8, 6)).astype("float32")
lo = rng.uniform(0.1, 0.4, size=(8, 2))
true_boxes = np.concatenate([lo, lo + rng.uniform(0.2, 0.5, size=(8, 2))], axis=1).astype("float32")
colors = np.array([[1.0, 1.0, 1.0]], dtype="float32")

model = keras.Sequential([keras.Input((6,)),
                          keras.layers.Dense(16, activation="relu", name="box_hidden"),
                          keras.layers.Dense(4, activation="sigmoid", name="box_corners")], name="box_regressor")


def render(boxes):
    canvas = tf.zeros((tf.shape(boxes)[0], 16, 16, 3))
    return tf.image.draw_bounding_boxes(canvas, boxes[:, None, :], colors)


@tf.function
def train_step(features, wanted):
    with tf.GradientTape() as tape:
        drawn = render(model(features, training=True))  # expect: non-differentiable-op primary
        loss = tf.reduce_mean(tf.square(drawn - render(wanted)))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, true_boxes)
print({v.path: float(tf.reduce_sum(tf.abs(g))) for v, g in zip(model.trainable_variables, grads)})
