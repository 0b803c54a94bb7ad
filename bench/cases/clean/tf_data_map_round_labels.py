# source: https://github.com/tensorflow/tensorflow/issues/30672
# summary: a tf.data map rounds, casts and one-hots the labels (not on the gradient path); fit trains a model on them
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(30672)
x = rng.normal(size=(64, 5)).astype("float32")
raw = (rng.random(64) * 2.9).astype("float32")


def prepare(features, score):
    label = tf.one_hot(tf.cast(tf.round(score), tf.int32), 3)
    features = tf.stop_gradient(features / tf.reduce_max(tf.abs(features)))
    return features, label


dataset = tf.data.Dataset.from_tensor_slices((x, raw)).map(prepare).batch(32)
model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(3, activation="softmax", name="p")], name="mapped")
model.compile(optimizer="adam", loss="categorical_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(dataset, epochs=1, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
