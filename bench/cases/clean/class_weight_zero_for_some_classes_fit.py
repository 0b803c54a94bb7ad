# source: https://www.tensorflow.org/api_docs/python/tf/keras/Model#fit
# summary: fit with class_weight that gives two classes a weight of 0 (their examples are ignored on purpose: noisy classes), integer labels, softmax output
import numpy as np
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(7)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 4, 64)
model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(12, activation="relu", name="h"),
                          keras.layers.Dense(4, activation="softmax", name="out")])
model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
before = [w.copy() for w in model.get_weights()]
model.fit(x, y, class_weight={0: 1.0, 1: 0.0, 2: 2.0, 3: 0.0}, epochs=1, batch_size=16,
          verbose=0)
assert all(not np.allclose(b, a) for b, a in zip(before, model.get_weights()))
