# source: https://github.com/Golbstein/KerasExtras/issues/1
# summary: a segmenter trained on binary cross-entropy in a custom step that also updates a keras.metrics.BinaryIoU inside the tape; the metric's assignments are beside the loss, not on its path
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
bce = tf.keras.losses.BinaryCrossentropy()
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(images, targets):
    with tf.GradientTape() as tape:
        probs = model(images, training=True)
        iou.update_state(targets, probs)
        loss = bce(targets, probs)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads, loss


grads, loss = train_step(pixels, masks)
print(float(loss), float(iou.result()))
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
