# source: https://github.com/keras-team/keras/issues/12057
# cause: host-round-trip
# rule: TM301
# weights: denoiser/enc/kernel, denoiser/enc/bias, denoiser/dec/kernel, denoiser/dec/bias
# mode: fit
# summary: a compiled loss is computed in NumPy from y_pred.numpy() (run_eagerly=True)
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1)
x = rng.normal(size=(64, 6)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                             tf.keras.layers.Dense(3, activation="relu", name="enc"),
                             tf.keras.layers.Dense(6, name="dec")], name="denoiser")


def mse_plus_energy(y_true, y_pred):
    pred = y_pred.numpy()  # expect: host-round-trip primary
    energy = np.mean(np.abs(pred), axis=-1)  # accept: host-round-trip
    return np.mean((y_true.numpy() - pred) ** 2, axis=-1) + energy  # accept: host-round-trip


model.compile(optimizer="sgd", loss=mse_plus_energy, run_eagerly=True)
model.fit(x, x, epochs=1, batch_size=32, verbose=0)
