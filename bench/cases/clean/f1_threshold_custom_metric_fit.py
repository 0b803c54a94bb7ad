# summary: a custom stateful metric class (F1 at a 0.5 threshold: predictions compared and cast, counts in add_weight variables, reset_state) beside a binary cross-entropy loss, fit
# source: https://keras.io/api/metrics/#creating-custom-metrics
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(23)
rng = np.random.default_rng(23)
x = rng.normal(size=(64, 6)).astype("float32")
y = (x[:, :1] + 0.3 * x[:, 1:2] > 0).astype("float32")


class F1Score(keras.metrics.Metric):
    def __init__(self, threshold=0.5, name="f1", **kw):
        super().__init__(name=name, **kw)
        self.threshold = threshold
        self.tp = self.add_weight(name="tp", initializer="zeros")
        self.fp = self.add_weight(name="fp", initializer="zeros")
        self.fn = self.add_weight(name="fn", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        pred = tf.cast(y_pred >= self.threshold, tf.float32)
        true = tf.cast(y_true, tf.float32)
        self.tp.assign_add(tf.reduce_sum(pred * true))
        self.fp.assign_add(tf.reduce_sum(pred * (1.0 - true)))
        self.fn.assign_add(tf.reduce_sum((1.0 - pred) * true))

    def result(self):
        return 2.0 * self.tp / (2.0 * self.tp + self.fp + self.fn + 1e-7)

    def reset_state(self):
        for v in (self.tp, self.fp, self.fn):
            v.assign(0.0)


model = keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="relu", name="h"),
                          layers.Dense(1, activation="sigmoid", name="p")], name="f1_clf")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="binary_crossentropy", metrics=[F1Score()])
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
