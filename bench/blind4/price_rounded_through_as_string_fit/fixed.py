# summary: the loss compares the raw predicted price with the target (rounding to cents is left to reporting), so it is differentiable and fit changes every weight
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(22)
items = rng.normal(size=(96, 5)).astype("float32")
price = np.round(np.abs(items @ rng.normal(size=(5, 1))) + 1.0, 2).astype("float32")


def cents_loss(y_true, y_pred):
    return tf.reduce_mean(tf.abs(y_pred - y_true))


model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="relu", name="price_hidden"),
                          keras.layers.Dense(1, name="price_out")], name="pricer")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=cents_loss)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(items, price, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
