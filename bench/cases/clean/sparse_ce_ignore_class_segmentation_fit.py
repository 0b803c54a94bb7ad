# source: https://keras.io/api/losses/probabilistic_losses/#sparsecategoricalcrossentropy-class
# summary: a small segmentation net trained by fit with SparseCategoricalCrossentropy(ignore_class=255) so that unlabelled pixels count for nothing, with a MeanIoU metric over argmax predictions
import numpy as np
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(6)
x = rng.random((8, 16, 16, 3)).astype("float32")
y = rng.integers(0, 3, (8, 16, 16, 1))
y[:, :4] = 255  # an unlabelled border
inp = keras.Input((16, 16, 3))
h = keras.layers.Conv2D(8, 3, padding="same", activation="relu", name="c1")(inp)
h = keras.layers.Conv2D(8, 3, padding="same", activation="relu", name="c2")(h)
out = keras.layers.Conv2D(3, 1, name="logits")(h)
model = keras.Model(inp, out)
model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=255),
              metrics=[keras.metrics.MeanIoU(3, sparse_y_pred=False, ignore_class=255)])
before = [w.copy() for w in model.get_weights()]
model.fit(x, y, epochs=1, batch_size=4, verbose=0)
assert all(not np.allclose(b, a) for b, a in zip(before, model.get_weights()))
