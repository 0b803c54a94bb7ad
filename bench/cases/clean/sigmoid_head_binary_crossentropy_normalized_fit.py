# summary: a binary classifier on raw-scale tabular features: a Normalization layer adapted to the data first, a Dense(1, activation="sigmoid") head and loss="binary_crossentropy" (from_logits=False, the probabilities it expects), trained with fit; every weight changes
# source: https://keras.io/examples/structured_data/structured_data_classification_from_scratch/
import keras
import numpy as np

keras.utils.set_random_seed(5)

rng = np.random.default_rng(5)
x = rng.uniform(60.0, 160.0, size=(64, 4)).astype("float32")
y = (x[:, 0] > 110.0).astype("float32")[:, None]

scale = keras.layers.Normalization(name="scale")
scale.adapt(x)
model = keras.Sequential([keras.Input((4,)), scale,
                          keras.layers.Dense(8, activation="relu", name="hidden"),
                          keras.layers.Dense(1, activation="sigmoid", name="prob")], name="clf")
model.compile(optimizer=keras.optimizers.SGD(1e-2), loss="binary_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
