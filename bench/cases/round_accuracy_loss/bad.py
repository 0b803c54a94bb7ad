# source: https://github.com/tensorflow/tensorflow/issues/58614
# cause: non-differentiable-op
# rule: TM201
# weights: clf/h/kernel, clf/h/bias, clf/p/kernel, clf/p/bias
# mode: eager
# summary: a custom training loop minimises 1 - accuracy computed with tf.round and tf.equal
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(4)
x = rng.normal(size=(100, 3)).astype("float32")
y = (x.sum(axis=1, keepdims=True) > 0).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                             tf.keras.layers.Dense(4, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, activation="sigmoid", name="p")], name="clf")
optimizer = tf.keras.optimizers.Adam(0.01)


def error_rate(labels, prediction):
    decided = tf.round(prediction)  # expect: non-differentiable-op primary
    same = tf.equal(decided, labels)  # expect: non-differentiable-op|integer-dtype
    hits = tf.math.count_nonzero(same)
    return 1.0 - tf.cast(hits, tf.float32) / prediction.shape[0]


with tf.GradientTape() as tape:
    loss = error_rate(y, model(x))
grads = tape.gradient(loss, model.trainable_weights)
print(float(loss), grads)
