# source: https://markaicode.com/custom-gradients-non-differentiable-losses
# cause: non-differentiable-op|integer-dtype
# rule: TM201
# weights: detector/h/kernel, detector/h/bias, detector/p/kernel, detector/p/bias
# mode: fit
# summary: a custom loss thresholds the probabilities with tf.cast(y_pred > 0.5, tf.float32)
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(3)
x = rng.normal(size=(64, 8)).astype("float32")
y = (x[:, :1] > 0).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((8,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, activation="sigmoid", name="p")],
                            name="detector")


def hard_error(y_true, y_pred):
    above = y_pred > 0.5  # expect: non-differentiable-op|integer-dtype primary
    decided = tf.cast(above, tf.float32)
    return tf.reduce_mean(tf.square(y_true - decided), axis=-1)


model.compile(optimizer="adam", loss=hard_error)
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
