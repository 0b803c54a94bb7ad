# source: https://github.com/Golbstein/KerasExtras/issues/1
# cause: variable-assign|non-differentiable-op|integer-dtype
# weights: segmenter/enc/kernel, segmenter/enc/bias, segmenter/mask/kernel, segmenter/mask/bias
# mode: function
# summary: a per-pixel segmenter is trained on 1 - IoU read from a keras.metrics.BinaryIoU object; update_state thresholds the probabilities into a confusion matrix it accumulates in the metric's variable, so the loss is a read of that variable and no gradient reaches the model
# lint: no (the cut is inside Keras' metric code; the source shows only a metric object)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(1)

rng = np.random.default_rng(2018)
pixels = tf.constant(rng.uniform(size=(16, 8, 8, 3)).astype("float32"))
masks = tf.constant((pixels.numpy()[..., :1] > 0.5).astype("float32"))
model = tf.keras.Sequential([tf.keras.Input((8, 8, 3)),
                             tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu",
                                                    name="enc"),
                             tf.keras.layers.Conv2D(1, 1, activation="sigmoid", name="mask")],
                            name="segmenter")
iou = tf.keras.metrics.BinaryIoU(target_class_ids=[1], threshold=0.5)
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(images, targets):
    with tf.GradientTape() as tape:
        iou.reset_state()
        iou.update_state(targets, model(images, training=True))  # expect: variable-assign|non-differentiable-op|integer-dtype primary
        loss = 1.0 - iou.result()  # accept: variable-assign|non-differentiable-op|integer-dtype
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


print(float(train_step(pixels, masks)))
