# source: https://keras.io/guides/serialization_and_saving/
# summary: a model whose feature extractor was frozen on purpose is saved to a .keras file, loaded back with keras.models.load_model (the frozen state restored), compiled again and trained further: only the head trains
import os
import tempfile

import numpy as np
import keras

keras.utils.set_random_seed(0)
features = keras.Sequential([keras.Input((5,)), keras.layers.Dense(8, activation="relu", name="f1")],
                            name="features")
features.trainable = False
model = keras.Sequential([features, keras.layers.Dense(2, activation="softmax", name="cls")],
                         name="clf")
model.compile("adam", "sparse_categorical_crossentropy")
rng = np.random.default_rng(15)
x, y = rng.normal(size=(32, 5)).astype("float32"), rng.integers(0, 2, 32)
model.fit(x, y, epochs=1, verbose=0)
path = os.path.join(tempfile.mkdtemp(), "clf.keras")
model.save(path)
restored = keras.models.load_model(path)
restored.compile("adam", "sparse_categorical_crossentropy")
frozen = restored.get_layer("features").get_layer("f1").kernel.numpy().copy()
before = {w.path: w.numpy().copy() for w in restored.trainable_weights}
restored.fit(x, y, epochs=1, batch_size=8, verbose=0)
assert len(restored.trainable_weights) == 2
assert np.allclose(frozen, restored.get_layer("features").get_layer("f1").kernel.numpy())
assert all(not np.allclose(before[w.path], w.numpy()) for w in restored.trainable_weights)
