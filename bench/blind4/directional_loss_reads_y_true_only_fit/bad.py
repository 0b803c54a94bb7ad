# source: https://github.com/rstudio/keras3/issues/515
# cause: not-connected
# weights: trend/trend_hidden/kernel, trend/trend_hidden/bias, trend/trend_out/kernel, trend/trend_out/bias
# mode: fit
# summary: a forecaster of the next five prices is trained on a custom "direction" loss comparing the day-to-day steps of the prediction with those of the target, but the predicted steps are computed from y_true (a copy-paste slip), so the loss never reads y_pred and fit raises "No gradients provided for any variable"
# lint: yes
import keras
import numpy as np
from keras import ops

keras.utils.set_random_seed(0)

rng = np.random.default_rng(515)
history = rng.normal(size=(96, 10)).astype("float32")
future = np.cumsum(rng.normal(size=(96, 5)), axis=1).astype("float32")


def direction_loss(y_true, y_pred):
    true_steps = y_true[:, 1:] - y_true[:, :-1]
    pred_steps = y_true[:, 1:] - y_true[:, :-1]  # expect: not-connected primary
    return ops.mean(ops.square(pred_steps - true_steps))


model = keras.Sequential([keras.Input((10,)),
                          keras.layers.Dense(16, activation="relu", name="trend_hidden"),
                          keras.layers.Dense(5, name="trend_out")], name="trend")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=direction_loss)
model.fit(history, future, epochs=2, batch_size=32, verbose=0)
