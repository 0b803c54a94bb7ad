# source: https://github.com/keras-team/keras/pull/20321
# cause: sources-mismatch
# weights: channel_gain/gain
# mode: fit
# summary: a custom layer creates its per-channel gain with trainable=self.learn_gain; stage one builds it with learn_gain=True and saves the model, but get_config leaves learn_gain out, so keras.models.load_model rebuilds the layer with the default learn_gain=False and the fine-tuning fit never changes the gain
# lint: no (the missing key is a serialization detail; each line is valid)
import os
import tempfile

import keras
import numpy as np

keras.utils.set_random_seed(0)


@keras.saving.register_keras_serializable(package="blind7")
class ChannelGain(keras.layers.Layer):
    def __init__(self, learn_gain=False, **kwargs):
        super().__init__(**kwargs)
        self.learn_gain = learn_gain

    def build(self, input_shape):
        self.gain = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="gain",
                                    trainable=self.learn_gain)

    def call(self, inputs):
        return inputs * self.gain

    def get_config(self):
        return super().get_config()  # expect: sources-mismatch primary


rng = np.random.default_rng(20321)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")

inputs = keras.Input((5,))
h = ChannelGain(learn_gain=True, name="channel_gain")(inputs)
model = keras.Model(inputs, keras.layers.Dense(1, name="regressor")(h), name="gain_model")
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
path = os.path.join(tempfile.mkdtemp(), "stage_one.keras")
model.save(path)

reloaded = keras.models.load_model(path)
reloaded.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = {w.path: w.numpy().copy() for w in reloaded.weights}
reloaded.fit(x, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in reloaded.weights})
