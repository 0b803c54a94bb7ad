# source: https://keras.io/api/callbacks/learning_rate_scheduler/
# summary: a warm-up done by a LearningRateScheduler callback whose schedule returns 0.0 for the first epoch, so the first epoch's steps compute gradients but leave the weights unchanged; later epochs train
import numpy as np
import keras

keras.utils.set_random_seed(0)


def schedule(epoch, lr):
    return 0.0 if epoch == 0 else 1e-2


model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu", name="h"),
                          keras.layers.Dense(1, name="out")])
model.compile(keras.optimizers.SGD(1e-2), "mse")
rng = np.random.default_rng(16)
x, y = rng.normal(size=(32, 4)).astype("float32"), rng.normal(size=(32, 1)).astype("float32")
before = [w.copy() for w in model.get_weights()]
model.fit(x, y, epochs=3, batch_size=8, verbose=0,
          callbacks=[keras.callbacks.LearningRateScheduler(schedule)])
assert all(not np.allclose(b, a) for b, a in zip(before, model.get_weights()))
