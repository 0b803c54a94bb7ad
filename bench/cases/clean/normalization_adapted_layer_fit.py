# source: https://keras.io/api/layers/preprocessing_layers/numerical/normalization/
# summary: a Normalization layer adapted on the training data (non-trainable mean and variance weights in the model) in front of a regression MLP; model.weights holds the statistics, fit trains the Dense layers only
import numpy as np
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(43)
x = (rng.normal(size=(64, 4)) * [1, 10, 100, 0.1] + [0, 5, -50, 1]).astype("float32")
y = rng.normal(size=(64, 1)).astype("float32")
norm = keras.layers.Normalization(name="norm")
norm.adapt(x)
model = keras.Sequential([keras.Input((4,)), norm, keras.layers.Dense(8, activation="relu", name="h"),
                          keras.layers.Dense(1, name="out")])
model.compile("adam", "mse")
mean = norm.mean.numpy().copy()
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
assert np.allclose(mean, norm.mean.numpy())
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
