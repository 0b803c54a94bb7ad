# source: https://github.com/tensorflow/tensorflow/issues/36596
# cause: host-round-trip
# rule: TM301
# weights: vgg_like/f/kernel, vgg_like/f/bias, vgg_like/cls/kernel, vgg_like/cls/bias
# mode: fit
# summary: a Keras 3 loss converts y_pred with keras.ops.convert_to_numpy (run_eagerly=True)
# lint: yes
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
    p = keras.ops.convert_to_numpy(y_pred)  # expect: host-round-trip primary
    weight = (1.0 - p) ** 2
    return keras.ops.sum(-y_true * weight * keras.ops.log(p + 1e-7), axis=-1)


model.compile(optimizer="adam", loss=focal_like, run_eagerly=True)
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
