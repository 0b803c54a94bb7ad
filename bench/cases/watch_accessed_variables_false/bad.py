# source: https://github.com/tensorflow/tensorflow/issues/38751
# cause: not-watched
# rule: TM101
# weights: encoder/c1/kernel, encoder/c1/bias, encoder/head/kernel, encoder/head/bias
# mode: eager
# summary: watch_accessed_variables=False, copied from an input-saliency snippet, in a train loop
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(37)
images = tf.constant(rng.random((8, 8, 8, 3)).astype("float32"))
labels = tf.constant(rng.integers(0, 4, size=8))
model = tf.keras.Sequential([tf.keras.layers.Input((8, 8, 3)),
                             tf.keras.layers.Conv2D(4, 3, activation="relu", name="c1"),
                             tf.keras.layers.GlobalAveragePooling2D(),
                             tf.keras.layers.Dense(4, name="head")], name="encoder")
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

with tf.GradientTape(watch_accessed_variables=False) as tape:  # expect: not-watched primary
    tape.watch(images)
    loss = loss_object(labels, model(images))
grads = tape.gradient(loss, model.trainable_variables)
print(grads)
