# source: https://github.com/tensorflow/tensorflow/issues/42830
# summary: a custom layer keeps a running peak of its input in a weight created with trainable=False and updated by assign in call (a statistic, not a parameter); its get_config returns every constructor argument, the model is saved and reloaded, and fine-tuning changes every trainable weight while the statistic is left to assign
import os
import tempfile

import keras
import numpy as np

keras.utils.set_random_seed(0)


@keras.saving.register_keras_serializable(package="blind7clean")
class PeakScaler(keras.layers.Layer):
    def __init__(self, momentum=0.9, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum

    def build(self, input_shape):
        self.peak = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="peak", trainable=False)
        self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="scale")

    def call(self, inputs, training=False):
        if training:
            batch_peak = keras.ops.max(keras.ops.abs(inputs), axis=0)
            self.peak.assign(self.momentum * self.peak + (1.0 - self.momentum) * batch_peak)
        return self.scale * inputs / keras.ops.stop_gradient(self.peak)

    def get_config(self):
        return {**super().get_config(), "momentum": self.momentum}


rng = np.random.default_rng(42830)
x = (5.0 * rng.normal(size=(64, 4))).astype("float32")
y = (x @ rng.normal(size=(4, 1))).astype("float32")

inputs = keras.Input((4,))
model = keras.Model(inputs, keras.layers.Dense(1, name="peak_head")(PeakScaler(name="peak_scaler")(inputs)),
                    name="peak_model")
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
path = os.path.join(tempfile.mkdtemp(), "peak.keras")
model.save(path)

reloaded = keras.models.load_model(path)
reloaded.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = {w.path: w.numpy().copy() for w in reloaded.trainable_weights}
reloaded.fit(x, y, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in reloaded.trainable_weights}
assert len(changed) == 3 and all(changed.values()), changed
