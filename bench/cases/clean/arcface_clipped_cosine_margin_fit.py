# summary: an ArcFace head: L2-normalised features and class centres, cosine clipped to (-1 + eps, 1 - eps) before acos, an additive angular margin on the target class through a one_hot mix, scaled logits into cross-entropy, fit on two inputs (features, labels)
# source: https://github.com/4uiiurz1/keras-arcface
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(39)
rng = np.random.default_rng(39)
n, classes = 64, 4
x = rng.normal(size=(n, 6)).astype("float32")
labels = rng.integers(0, classes, size=n)
y = np.eye(classes, dtype="float32")[labels]


class ArcFace(layers.Layer):
    def __init__(self, n_classes, s=30.0, m=0.5, **kwargs):
        super().__init__(**kwargs)
        self.n_classes, self.s, self.m = n_classes, s, m

    def build(self, input_shape):
        self.W = self.add_weight(name="W", shape=(input_shape[0][-1], self.n_classes),
                                 initializer="glorot_uniform")

    def call(self, inputs):
        x, y = inputs
        x = tf.nn.l2_normalize(x, axis=1)
        W = tf.nn.l2_normalize(self.W, axis=0)
        logits = x @ W
        theta = tf.acos(tf.clip_by_value(logits, -1.0 + 1e-7, 1.0 - 1e-7))
        target_logits = tf.cos(theta + self.m)
        logits = logits * (1 - y) + target_logits * y
        return tf.nn.softmax(logits * self.s)


inp, lab = keras.Input((6,)), keras.Input((classes,))
h = layers.Dense(8, name="embed")(inp)
h = layers.BatchNormalization(name="bn")(h)
out = ArcFace(classes, name="arcface")([h, lab])
model = keras.Model([inp, lab], out)
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="categorical_crossentropy")
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit([x, y], y, batch_size=16, epochs=2, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
