# summary: a soft argmax (softmax-weighted class index) replaces argmax
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2)
x = rng.normal(size=(64, 4)).astype("float32")
y = rng.integers(0, 5, size=(64, 1)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(16, activation="relu", name="h"),
                             tf.keras.layers.Dense(5, name="logits")], name="ordinal")


def class_distance(y_true, y_pred):
    predicted = tf.reduce_sum(tf.nn.softmax(y_pred) * tf.range(5, dtype=tf.float32), axis=-1)
    return tf.abs(predicted - y_true[:, 0])


model.compile(optimizer="adam", loss=class_distance)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
