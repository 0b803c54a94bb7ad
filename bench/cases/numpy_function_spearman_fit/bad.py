# source: https://github.com/tensorflow/tensorflow/issues/35713
# cause: numpy-function
# rule: TM302
# weights: ranker/h/kernel, ranker/h/bias, ranker/score/kernel, ranker/score/bias
# mode: fit
# summary: a Spearman loss ranks y_pred with tf.numpy_function, so fit has no gradient
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(9)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x @ np.array([1.0, -2.0, 0.5, 0.0], dtype="float32"))[:, None]
model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, name="score")], name="ranker")


def ranks(values):
    return np.argsort(np.argsort(values)).astype("float32")


def spearman_loss(y_true, y_pred):
    rank_true = tf.numpy_function(ranks, [y_true[:, 0]], tf.float32)
    pred = y_pred[:, 0]
    rank_pred = tf.numpy_function(ranks, [pred], "float32")  # expect: numpy-function primary
    n = tf.cast(tf.shape(y_pred)[0], tf.float32)
    return 6.0 * tf.reduce_sum((rank_true - rank_pred) ** 2) / (n ** 3 - n)


model.compile(optimizer="adam", loss=spearman_loss)
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
