# source: https://github.com/tensorflow/models/issues/432
# summary: an attention-crop model predicts a box per image and crops it with tf.image.crop_and_resize (box_indices are integers by design); CropAndResize has a registered gradient for the boxes as well as the image, so the box regressor and the classifier both train
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(432)
images = rng.uniform(size=(6, 12, 12, 1)).astype("float32")
labels = rng.integers(0, 2, size=(6,))

box_net = tf.keras.Sequential([tf.keras.Input((12, 12, 1)), tf.keras.layers.Flatten(),
                               tf.keras.layers.Dense(4, activation="sigmoid", name="box")],
                              name="box_net")
classifier = tf.keras.Sequential([tf.keras.Input((6, 6, 1)), tf.keras.layers.Flatten(),
                                  tf.keras.layers.Dense(2, name="cls")], name="classifier")
sources = box_net.trainable_variables + classifier.trainable_variables
optimizer = tf.keras.optimizers.Adam(1e-2)
xent = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def train_step(batch, y):
    with tf.GradientTape() as tape:
        raw = box_net(batch, training=True)
        boxes = tf.concat([raw[:, :2] * 0.5, 0.5 + raw[:, 2:] * 0.5], axis=1)
        crops = tf.image.crop_and_resize(batch, boxes, tf.range(tf.shape(batch)[0]), [6, 6])
        loss = xent(y, classifier(crops, training=True))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return grads


grads = train_step(images, labels)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
