# source: https://github.com/keras-team/keras/issues/4792
# cause: sources-mismatch
# weights: encoder_conv/kernel, encoder_conv/bias
# mode: fit
# summary: a small 1-D conv encoder is frozen while a new regression head trains, the model is saved to a .keras file; a second script loads it with keras.models.load_model(compile=False) to fine-tune end to end on more data, but the file brings back encoder_conv.trainable = False, so fit leaves the encoder untouched
# lint: no (the freeze comes back from the saved file)
import os
import tempfile

import keras
import numpy as np

keras.utils.set_random_seed(1)

rng = np.random.default_rng(4792)
series = rng.normal(size=(96, 12, 1)).astype("float32")
target = series[:, -3:, 0].mean(axis=1, keepdims=True).astype("float32")

inputs = keras.Input((12, 1))
features = keras.layers.Conv1D(4, 3, activation="relu", name="encoder_conv")(inputs)
pooled = keras.layers.GlobalAveragePooling1D(name="pool")(features)
model = keras.Model(inputs, keras.layers.Dense(1, name="regressor")(pooled), name="forecaster")
model.get_layer("encoder_conv").trainable = False  # accept: sources-mismatch
model.compile(optimizer="adam", loss="mse")
model.fit(series[:48], target[:48], epochs=1, batch_size=16, verbose=0)
checkpoint = os.path.join(tempfile.mkdtemp(), "forecaster.keras")
model.save(checkpoint)

tuned = keras.models.load_model(checkpoint, compile=False)  # expect: sources-mismatch primary
tuned.compile(optimizer=keras.optimizers.Adam(3e-3), loss="mse")
kernel_before = tuned.get_layer("encoder_conv").kernel.numpy().copy()
tuned.fit(series, target, epochs=2, batch_size=16, verbose=0)
print("encoder moved:", bool(np.any(kernel_before != tuned.get_layer("encoder_conv").kernel.numpy())))
