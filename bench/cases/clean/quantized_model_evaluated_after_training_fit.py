# summary: a classifier is trained with fit, quantized to int8 for serving, and only evaluated afterwards; no training step reads the int8 kernels
# source: https://github.com/keras-team/keras-io/pull/2193
import keras
import numpy as np

keras.utils.set_random_seed(8)

rng = np.random.default_rng(2193)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 2, size=64)

clf = keras.Sequential([keras.Input((6,)), keras.layers.Dense(10, activation="relu", name="h"),
                        keras.layers.Dense(2, name="logits")], name="served")
clf.compile(optimizer="adam",
            loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
clf.fit(x, y, epochs=2, batch_size=16, verbose=0)
clf.quantize("int8")
print(clf.evaluate(x, y, verbose=0))
