# source: https://datascience.stackexchange.com/questions/33587/keras-custom-loss-function-as-true-negatives-by-true-negatives-plus-false-posit
# cause: integer-dtype|non-differentiable-op
# weights: screen/hidden/kernel, screen/hidden/bias, screen/score/kernel, screen/score/bias
# mode: fit
# summary: a "1 - specificity" loss thresholds the sigmoid output and counts true negatives and false positives with tf.math.confusion_matrix; the counts are integers with no gradient, so fit raises "No gradients provided for any variable"
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(33587)
x = rng.normal(size=(128, 4)).astype("float32")
y = (x[:, 0] + 0.5 * x[:, 2] > 0.3).astype("float32")[:, None]


def specificity_loss(y_true, y_pred):
    predicted = tf.cast(y_pred > 0.5, tf.int32)  # expect: integer-dtype|non-differentiable-op primary
    counts = tf.math.confusion_matrix(tf.reshape(tf.cast(y_true, tf.int32), [-1]),
                                      tf.reshape(predicted, [-1]), num_classes=2)  # accept: integer-dtype|non-differentiable-op
    tn = tf.cast(counts[0, 0], tf.float32)
    fp = tf.cast(counts[0, 1], tf.float32)
    return 1.0 - tn / (tn + fp + 1e-7)


model = tf.keras.Sequential([tf.keras.Input((4,)),
                             tf.keras.layers.Dense(8, activation="relu", name="hidden"),
                             tf.keras.layers.Dense(1, activation="sigmoid", name="score")], name="screen")
model.compile(optimizer="adam", loss=specificity_loss)
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
