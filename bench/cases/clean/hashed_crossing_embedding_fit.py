# source: https://keras.io/api/layers/preprocessing_layers/categorical/hashed_crossing/
# summary: two integer categorical features crossed by a HashedCrossing layer into bucket ids (integers), an Embedding of the crossed ids plus a Dense on a numeric feature; the preprocessing runs in a tf.data map and the model is fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(42)
a, b = rng.integers(0, 5, 48), rng.integers(0, 7, 48)
num = rng.normal(size=(48, 1)).astype("float32")
y = rng.integers(0, 2, (48, 1))
cross = keras.layers.HashedCrossing(num_bins=16)
ds = tf.data.Dataset.from_tensor_slices(((a, b, num), y)).batch(12).map(
    lambda f, t: ({"crossed": cross((f[0], f[1])), "num": f[2]}, t))
crossed_in = keras.Input((), dtype="int64", name="crossed")
num_in = keras.Input((1,), name="num")
h = keras.layers.Concatenate()([keras.layers.Embedding(16, 4, name="cross_emb")(crossed_in), num_in])
out = keras.layers.Dense(1, activation="sigmoid", name="out")(keras.layers.Dense(8, activation="relu", name="h")(h))
model = keras.Model({"crossed": crossed_in, "num": num_in}, out)
model.compile("adam", "binary_crossentropy")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(ds, epochs=1, verbose=0)
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
