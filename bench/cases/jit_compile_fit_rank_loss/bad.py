# source: https://github.com/tensorflow/tensorflow/issues/56396
# cause: non-differentiable-op|integer-dtype
# rule: TM201
# weights: orderer/h/kernel, orderer/h/bias, orderer/score/kernel, orderer/score/bias
# mode: fit
# summary: compile(jit_compile=True) with a custom loss comparing the ranks (argsort of argsort) of predictions and targets
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(56396)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")


def rank_loss(y_true, y_pred):
    true_rank = tf.argsort(tf.argsort(y_true[:, 0]))
    pred_rank = tf.argsort(tf.argsort(y_pred[:, 0]))  # expect: non-differentiable-op|integer-dtype primary
    return tf.reduce_mean(tf.cast(tf.abs(true_rank - pred_rank), tf.float32))


model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, name="score")], name="orderer")
model.compile(optimizer="adam", loss=rank_loss, jit_compile=True)
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
