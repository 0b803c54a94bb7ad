# source: https://github.com/rstudio/keras3/issues/506
# cause: host-round-trip
# rule: TM301
# weights: ae/code/kernel, ae/code/bias, ae/recon/kernel, ae/recon/bias
# mode: fit
# summary: a perceptual loss feeds keras.backend.eval(y_pred) to a frozen feature network
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(13)
x = rng.random((64, 8)).astype("float32")
features = tf.keras.Sequential([tf.keras.layers.Input((8,)),
                                tf.keras.layers.Dense(4, name="f")], name="features")
features.trainable = False
model = tf.keras.Sequential([tf.keras.layers.Input((8,)),
                             tf.keras.layers.Dense(3, activation="relu", name="code"),
                             tf.keras.layers.Dense(8, activation="sigmoid", name="recon")],
                            name="ae")


def perceptual(y_true, y_pred):
    pred_map = features(tf.keras.backend.eval(y_pred))  # expect: host-round-trip primary
    true_map = features(y_true)
    return tf.reduce_mean(tf.square(pred_map - true_map), axis=-1)


model.compile(optimizer="adam", loss=perceptual, run_eagerly=True)
model.fit(x, x, epochs=1, batch_size=32, verbose=0)
