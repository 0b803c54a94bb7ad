# source: https://py4u.org/questions/46926809/
# cause: non-differentiable-op|integer-dtype
# rule: TM201
# weights: ordinal/h/kernel, ordinal/h/bias, ordinal/logits/kernel, ordinal/logits/bias
# mode: fit
# summary: an ordinal loss takes the distance between argmax(y_pred) and the true class index
# lint: yes
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
    index = tf.argmax(y_pred, axis=-1)  # expect: non-differentiable-op|integer-dtype primary
    predicted = tf.cast(index, tf.float32)
    return tf.abs(predicted - y_true[:, 0])


model.compile(optimizer="adam", loss=class_distance)
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
