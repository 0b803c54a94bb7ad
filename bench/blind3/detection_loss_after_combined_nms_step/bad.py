# source: https://github.com/tensorflow/tensorflow/issues/34366
# cause: non-differentiable-op
# weights: box_head/kernel, box_head/bias, score_head/kernel, score_head/bias
# mode: function
# summary: a one-stage detector's training step runs tf.image.combined_non_max_suppression on its predicted boxes and scores inside the tape and regresses the surviving boxes onto the ground truth; CombinedNonMaxSuppression has no registered gradient, so the gradient call raises LookupError
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(34366)
features = rng.normal(size=(4, 6, 8)).astype("float32")
gt_boxes = np.sort(rng.uniform(size=(4, 2, 4)), axis=-1).astype("float32")

inputs = tf.keras.Input((6, 8))
boxes = tf.keras.layers.Dense(4, activation="sigmoid", name="box_head")(inputs)
scores = tf.keras.layers.Dense(1, activation="sigmoid", name="score_head")(inputs)
model = tf.keras.Model(inputs, [boxes, scores], name="detector")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(batch, truth):
    with tf.GradientTape() as tape:
        pred_boxes, pred_scores = model(batch, training=True)
        kept_boxes, kept_scores, _, _ = tf.image.combined_non_max_suppression(  # expect: non-differentiable-op primary
            pred_boxes[:, :, None, :], pred_scores, max_output_size_per_class=2, max_total_size=2,
            clip_boxes=False)
        loss = tf.reduce_mean(tf.abs(kept_boxes - truth)) - tf.reduce_mean(kept_scores)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


train_step(features, gt_boxes)
