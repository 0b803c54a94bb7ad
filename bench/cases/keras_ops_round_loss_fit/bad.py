# source: https://github.com/keras-team/keras/issues/4175
# cause: non-differentiable-op
# rule: TM201
# weights: counter/h/kernel, counter/h/bias, counter/count/kernel, counter/count/bias
# mode: fit
# summary: a compiled regression loss rounds y_pred (counts are integers) before the error
# lint: yes
import numpy as np
import tensorflow as tf
from tensorflow import keras

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(6)
x = rng.normal(size=(64, 4)).astype("float32")
y = rng.integers(0, 10, size=(64, 1)).astype("float32")
model = keras.Sequential([keras.layers.Input((4,)),
                          keras.layers.Dense(8, activation="relu", name="h"),
                          keras.layers.Dense(1, name="count")], name="counter")


def count_error(y_true, y_pred):
    whole = keras.ops.round(y_pred)  # expect: non-differentiable-op primary
    return keras.ops.mean(keras.ops.square(y_true - whole), axis=-1)


model.compile(optimizer="sgd", loss=count_error)
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
print(tf.__version__)
