# summary: a pairwise hinge on score differences (plus a squared error that anchors the offset) replaces the ranks; XLA still compiles the step
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(56396)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")


def pairwise_loss(y_true, y_pred):
    true_diff = y_true - tf.transpose(y_true)
    pred_diff = y_pred - tf.transpose(y_pred)
    hinge = tf.reduce_mean(tf.nn.relu(1.0 - tf.sign(true_diff) * pred_diff))
    return hinge + 0.1 * tf.reduce_mean(tf.square(y_true - y_pred))


model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, name="score")], name="orderer")
model.compile(optimizer="adam", loss=pairwise_loss, jit_compile=True)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
