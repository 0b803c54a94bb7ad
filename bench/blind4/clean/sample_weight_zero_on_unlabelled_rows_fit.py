# source: https://github.com/keras-team/keras/issues/5045
# summary: a partially labelled regression set gives its unlabelled rows sample weight 0 (the labelled rows weight 1); some rows drop out of the loss, but the weighted loss still depends on every weight and fit changes all of them
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(5045)
x = rng.normal(size=(160, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")
labelled = rng.uniform(size=(160,)) < 0.4
y[~labelled] = 0.0
sample_weight = labelled.astype("float32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="relu", name="partial_hidden"),
                          keras.layers.Dense(1, name="partial_out")], name="partial")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, sample_weight=sample_weight, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
