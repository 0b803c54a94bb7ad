# source: https://github.com/keras-team/tf-keras/issues/52
# cause: non-differentiable-op|integer-dtype
# rule: TM201
# weights: spam/h/kernel, spam/h/bias, spam/p/kernel, spam/p/bias
# mode: fit
# summary: model.compile is given the binary_accuracy metric as its loss, which thresholds the predictions
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(52)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x[:, :1] + x[:, 1:2] > 0).astype("float32")


def negative_accuracy(y_true, y_pred):
    return 1.0 - tf.keras.metrics.binary_accuracy(y_true, y_pred)  # expect: non-differentiable-op|integer-dtype primary


model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, activation="sigmoid", name="p")], name="spam")
model.compile(optimizer="adam", loss=negative_accuracy, metrics=["accuracy"])
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
