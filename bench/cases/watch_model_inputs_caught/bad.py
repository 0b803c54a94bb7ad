# source: https://github.com/tensorflow/tensorflow/issues/104521
# cause: not-watched
# rule: TM108
# weights: -
# mode: function
# summary: a saliency map tries tape.watch(model.inputs) inside try/except; the watch raises, is swallowed, and the gradient is None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(54)
images = tf.constant(rng.random((4, 6, 6, 1)).astype("float32"))
labels = tf.constant([0, 1, 2, 1])
model = tf.keras.Sequential([tf.keras.layers.Input((6, 6, 1)),
                             tf.keras.layers.Conv2D(2, 3, name="conv"),
                             tf.keras.layers.Flatten(),
                             tf.keras.layers.Dense(3, name="logits")], name="cnn")
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def saliency(images, labels):
    with tf.GradientTape() as tape:
        try:
            tape.watch(model.inputs)  # expect: not-watched primary
        except (ValueError, TypeError):
            pass
        loss = loss_object(labels, model(images))
    return tape.gradient(loss, images)


print(saliency(images, labels))
