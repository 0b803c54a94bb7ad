# source: https://github.com/tensorflow/tensorflow/issues/56968
# cause: not-connected
# weights: -
# mode: eager
# summary: Grad-CAM: the class score is pasted in as a constant instead of read from the model
# lint: yes
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
    preds = model(image)  # accept
    class_channel = tf.constant([4.4328732])  # expect: not-connected primary
grads = tape.gradient(class_channel, image)
print("grads:", grads)
