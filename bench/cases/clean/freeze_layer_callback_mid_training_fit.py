# summary: a callback that freezes the first layer after epoch 1 and asks for a new train function (make_train_function(force=True)); the first layer moved during epoch 1 only, the head every epoch, fit
# source: https://keras.io/guides/writing_your_own_callbacks/
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(24)
rng = np.random.default_rng(24)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")
model = keras.Sequential([keras.Input((5,)), layers.Dense(8, activation="tanh", name="feature"),
                          layers.Dense(1, name="head")], name="progressive")
snapshots = {}


class FreezeAfterFirstEpoch(keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        if epoch == 0:
            layer = self.model.get_layer("feature")
            layer.trainable = False
            snapshots["feature"] = [w.numpy().copy() for w in layer.weights]
            snapshots["head"] = [w.numpy().copy() for w in self.model.get_layer("head").weights]
            self.model.make_train_function(force=True)


model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.get_layer("feature").weights]
model.fit(x, y, epochs=3, batch_size=16, verbose=0, callbacks=[FreezeAfterFirstEpoch()])
feature = model.get_layer("feature").weights
head = model.get_layer("head").weights
assert all(not np.allclose(b, s) for b, s in zip(before, snapshots["feature"]))
assert all(np.allclose(s, w.numpy()) for s, w in zip(snapshots["feature"], feature))
assert all(not np.allclose(s, w.numpy()) for s, w in zip(snapshots["head"], head))
