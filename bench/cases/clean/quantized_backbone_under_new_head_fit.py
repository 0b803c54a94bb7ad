# summary: a trained feature extractor is quantized to int8 on its own and then used, fixed, under a new float head; fit trains the head, and the extractor's int8 kernels stay as quantized on purpose
# source: https://keras.io/guides/int8_quantization_in_keras/
import keras
import numpy as np

keras.utils.set_random_seed(5)

rng = np.random.default_rng(2195)
x = rng.normal(size=(64, 8)).astype("float32")
y = rng.integers(0, 3, size=64)

extractor = keras.Sequential([keras.Input((8,)),
                              keras.layers.Dense(16, activation="relu", name="feat")],
                             name="extractor")
extractor.compile(optimizer="adam", loss="mse")
extractor.fit(x, rng.normal(size=(64, 16)).astype("float32"), epochs=1, verbose=0)
extractor.quantize("int8")

inputs = keras.Input((8,))
logits = keras.layers.Dense(3, name="new_head")(extractor(inputs))
classifier = keras.Model(inputs, logits, name="classifier")
classifier.compile(optimizer=keras.optimizers.Adam(1e-2),
                   loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
start = [w.numpy().copy() for w in classifier.trainable_weights]
classifier.fit(x, y, epochs=1, batch_size=16, verbose=0)
moved = [bool(np.any(s != w.numpy())) for s, w in zip(start, classifier.trainable_weights)]
assert all(moved), moved
