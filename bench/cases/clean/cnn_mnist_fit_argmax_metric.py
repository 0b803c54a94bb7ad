# summary: a small CNN on MNIST-shaped data trained with fit, sparse integer labels, and a custom metric that takes tf.argmax of the predictions
# source: https://keras.io/examples/vision/mnist_convnet/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(1)
rng = np.random.default_rng(1)
x = rng.uniform(size=(64, 28, 28, 1)).astype("float32")
y = rng.integers(0, 10, size=(64,))


class ArgmaxHits(keras.metrics.Metric):
    def __init__(self, name="argmax_hits", **kw):
        super().__init__(name=name, **kw)
        self.hits = self.add_weight(name="hits", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        pred = tf.argmax(y_pred, axis=-1, output_type=tf.int32)
        same = tf.cast(tf.equal(pred, tf.cast(tf.reshape(y_true, [-1]), tf.int32)), tf.float32)
        self.hits.assign_add(tf.reduce_sum(same))

    def result(self):
        return self.hits


model = keras.Sequential([
    keras.Input((28, 28, 1)),
    layers.Conv2D(8, 3, activation="relu", name="conv1"),
    layers.MaxPooling2D(),
    layers.Conv2D(8, 3, activation="relu", name="conv2"),
    layers.MaxPooling2D(),
    layers.Flatten(),
    layers.Dropout(0.5),
    layers.Dense(10, activation="softmax", name="out"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
              metrics=["accuracy", ArgmaxHits()])
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=32, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
