# source: https://github.com/tensorflow/tensorflow/issues/35093
# cause: non-differentiable-op|integer-dtype
# rule: TM201
# weights: mirror_clf/h/kernel, mirror_clf/h/bias, mirror_clf/p/kernel, mirror_clf/p/bias
# mode: fit
# summary: under MirroredStrategy.scope() a custom loss compares tf.cast(y_pred > 0.5) with the labels
# lint: yes
import numpy as np
import tensorflow as tf

cpus = tf.config.list_physical_devices("CPU")
tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.keras.utils.set_random_seed(0)

strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
rng = np.random.default_rng(35)
x = rng.normal(size=(32, 6)).astype("float32")
y = (x[:, :1] > 0).astype("float32")


def hard_error_loss(y_true, y_pred):
    decided = tf.cast(y_pred > 0.5, tf.float32)  # expect: non-differentiable-op|integer-dtype primary
    return tf.reduce_mean(tf.abs(y_true - decided))


with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                                 tf.keras.layers.Dense(8, activation="relu", name="h"),
                                 tf.keras.layers.Dense(1, activation="sigmoid", name="p")],
                                name="mirror_clf")
    model.compile(optimizer="adam", loss=hard_error_loss)
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
