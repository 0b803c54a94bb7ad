# source: https://github.com/tensorflow/tensorflow/issues/61771
# cause: integer-dtype
# rule: TM202
# weights: mp_net/h/kernel, mp_net/h/bias, mp_net/out/kernel, mp_net/out/bias
# mode: fit
# summary: under the mixed_float16 policy a custom loss casts the predictions to int32 to compare them with the integer labels
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.mixed_precision.set_global_policy("mixed_float16")
tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(61771)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 10, size=(64, 1)).astype("int32")


def count_error(y_true, y_pred):
    y_pred = tf.cast(y_pred, tf.int32)  # expect: integer-dtype primary
    diff = tf.cast(y_true, tf.int32) - y_pred
    return tf.reduce_mean(tf.cast(tf.square(diff), tf.float32))


model = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, name="out", dtype="float32")], name="mp_net")
model.compile(optimizer="adam", loss=count_error)
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
