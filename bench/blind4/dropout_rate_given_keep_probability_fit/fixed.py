# summary: the TF1 keep probability is converted to a Keras dropout rate (rate = 1 - keep_prob, with a 0.8 keep probability), so units survive dropout and fit changes every weight
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2)
fingerprints = rng.normal(size=(96, 20, 4)).astype("float32")
activity = (fingerprints[:, :5, 0].mean(axis=1, keepdims=True) > 0).astype("float32")
keep_prob = 0.8

model = keras.Sequential([
    keras.Input((20, 4)),
    keras.layers.Conv1D(8, 3, activation="relu", name="fp_conv"),
    keras.layers.GlobalMaxPooling1D(),
    keras.layers.Dropout(1.0 - keep_prob, name="fp_dropout"),
    keras.layers.Dense(1, activation="sigmoid", name="fp_out"),
], name="fingerprint")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="binary_crossentropy")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(fingerprints, activity, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
