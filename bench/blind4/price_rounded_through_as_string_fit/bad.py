# source: https://www.tensorflow.org/versions/r2.2/api_docs/python/tf/strings/as_string?hl=zh_cn
# cause: non-differentiable-op
# weights: pricer/price_hidden/kernel, pricer/price_hidden/bias, pricer/price_out/kernel, pricer/price_out/bias
# mode: fit
# summary: a pricing model's loss rounds the predicted price to cents the way the as_string docs show, tf.strings.to_number(tf.strings.as_string(y_pred, precision=2)); the string round trip has no gradient, so fit raises "No gradients provided for any variable"
# lint: yes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(22)
items = rng.normal(size=(96, 5)).astype("float32")
price = np.round(np.abs(items @ rng.normal(size=(5, 1))) + 1.0, 2).astype("float32")


def cents_loss(y_true, y_pred):
    in_cents = tf.strings.to_number(tf.strings.as_string(y_pred, precision=2))  # expect: non-differentiable-op primary
    return tf.reduce_mean(tf.abs(in_cents - y_true))


model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="relu", name="price_hidden"),
                          keras.layers.Dense(1, name="price_out")], name="pricer")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=cents_loss)
model.fit(items, price, epochs=2, batch_size=32, verbose=0)
