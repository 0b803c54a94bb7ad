# summary: after loading, the fine-tuning script unfreezes the encoder (tuned.get_layer("encoder_conv").trainable = True) before compiling, so fit trains the encoder and the head
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
model.get_layer("encoder_conv").trainable = False
model.compile(optimizer="adam", loss="mse")
model.fit(series[:48], target[:48], epochs=1, batch_size=16, verbose=0)
checkpoint = os.path.join(tempfile.mkdtemp(), "forecaster.keras")
model.save(checkpoint)

tuned = keras.models.load_model(checkpoint, compile=False)
tuned.get_layer("encoder_conv").trainable = True
tuned.compile(optimizer=keras.optimizers.Adam(3e-3), loss="mse")
kernel_before = tuned.get_layer("encoder_conv").kernel.numpy().copy()
tuned.fit(series, target, epochs=2, batch_size=16, verbose=0)
assert np.any(kernel_before != tuned.get_layer("encoder_conv").kernel.numpy())
