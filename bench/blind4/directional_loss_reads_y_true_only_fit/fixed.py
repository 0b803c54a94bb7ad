# summary: the predicted day-to-day steps are computed from y_pred, so the direction loss depends on the model and fit changes every weight
import keras
import numpy as np
from keras import ops

keras.utils.set_random_seed(0)

rng = np.random.default_rng(515)
history = rng.normal(size=(96, 10)).astype("float32")
future = np.cumsum(rng.normal(size=(96, 5)), axis=1).astype("float32")


def direction_loss(y_true, y_pred):
    true_steps = y_true[:, 1:] - y_true[:, :-1]
    pred_steps = y_pred[:, 1:] - y_pred[:, :-1]
    return ops.mean(ops.square(pred_steps - true_steps))


model = keras.Sequential([keras.Input((10,)),
                          keras.layers.Dense(16, activation="relu", name="trend_hidden"),
                          keras.layers.Dense(5, name="trend_out")], name="trend")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=direction_loss)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(history, future, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
