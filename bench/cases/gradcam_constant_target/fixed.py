# summary: the class score is a slice of the model's prediction
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(44)
image = tf.constant(rng.random((1, 8, 8, 1)).astype("float32"))
model = tf.keras.Sequential([tf.keras.layers.Input((8, 8, 1)),
                             tf.keras.layers.Conv2D(2, 3, name="conv"),
                             tf.keras.layers.GlobalAveragePooling2D(),
                             tf.keras.layers.Dense(5, name="logits")], name="cam")

with tf.GradientTape() as tape:
    tape.watch(image)
    preds = model(image)
    class_channel = preds[:, int(tf.argmax(preds[0]))]
grads = tape.gradient(class_channel, image)
assert grads is not None and float(tf.reduce_max(tf.abs(grads))) > 0
