# source: https://github.com/tensorflow/tensorflow/issues/31264
# cause: not-watched
# weights: -
# mode: eager
# summary: a saliency map watches model.inputs (symbolic Keras tensors) instead of the batch
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(17)
images = tf.constant(rng.random((4, 6, 6, 1)).astype("float32"))
labels = tf.constant([0, 1, 2, 1])
model = tf.keras.Sequential([tf.keras.layers.Input((6, 6, 1)),
                             tf.keras.layers.Conv2D(2, 3, name="conv"),
                             tf.keras.layers.Flatten(),
                             tf.keras.layers.Dense(3, name="logits")], name="cnn")
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

with tf.GradientTape() as tape:
    predictions = model(images)
    tape.watch(model.inputs)  # expect: not-watched primary
    loss = loss_object(labels, predictions)
saliency = tape.gradient(loss, model.inputs)
print(saliency)
