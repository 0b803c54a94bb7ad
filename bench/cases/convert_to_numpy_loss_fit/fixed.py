# summary: the focal weight is computed with keras.ops on the y_pred tensor
import numpy as np
from tensorflow import keras

keras.utils.set_random_seed(0)

rng = np.random.default_rng(40)
x = rng.normal(size=(64, 6)).astype("float32")
y = keras.utils.to_categorical(rng.integers(0, 3, size=64), 3)
model = keras.Sequential([keras.layers.Input((6,)),
                          keras.layers.Dense(8, activation="relu", name="f"),
                          keras.layers.Dense(3, activation="softmax", name="cls")],
                         name="vgg_like")


def focal_like(y_true, y_pred):
    weight = (1.0 - y_pred) ** 2
    return keras.ops.sum(-y_true * weight * keras.ops.log(y_pred + 1e-7), axis=-1)


model.compile(optimizer="adam", loss=focal_like, run_eagerly=True)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
