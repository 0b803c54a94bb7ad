# summary: the loss matches the raw predictions of the first anchors to the ground truth (box regression plus a score target), and combined_non_max_suppression runs only after the tape for the detections the step reports, so both heads get gradients
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(34366)
features = rng.normal(size=(4, 6, 8)).astype("float32")
gt_boxes = np.sort(rng.uniform(size=(4, 2, 4)), axis=-1).astype("float32")
objectness = np.zeros((4, 6, 1), dtype="float32")
objectness[:, :2] = 1.0

inputs = tf.keras.Input((6, 8))
boxes = tf.keras.layers.Dense(4, activation="sigmoid", name="box_head")(inputs)
scores = tf.keras.layers.Dense(1, activation="sigmoid", name="score_head")(inputs)
model = tf.keras.Model(inputs, [boxes, scores], name="detector")
optimizer = tf.keras.optimizers.Adam(1e-2)
bce = tf.keras.losses.BinaryCrossentropy()


@tf.function
def train_step(batch, truth, target_scores):
    with tf.GradientTape() as tape:
        pred_boxes, pred_scores = model(batch, training=True)
        loss = (tf.reduce_mean(tf.abs(pred_boxes[:, :2] - truth))
                + bce(target_scores, pred_scores))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    detections = tf.image.combined_non_max_suppression(
        pred_boxes[:, :, None, :], pred_scores, max_output_size_per_class=2, max_total_size=2)
    return grads, detections


grads, _ = train_step(features, gt_boxes, objectness)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
