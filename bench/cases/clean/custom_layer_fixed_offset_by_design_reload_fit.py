# source: https://github.com/keras-team/keras/issues/6642
# summary: a custom layer keeps a fixed per-feature offset (add_weight with trainable=self.learn_offset, built with the default False on purpose) and a clip value its get_config leaves out; load_model rebuilds it with the same frozen offset (the default is what the original used) and a different clip, which freezes nothing; the fine-tuning fit trains every trainable weight
import os
import tempfile

import keras
import numpy as np

keras.utils.set_random_seed(0)


@keras.saving.register_keras_serializable(package="clean")
class FixedOffset(keras.layers.Layer):
    def __init__(self, learn_offset=False, clip=10.0, **kwargs):
        super().__init__(**kwargs)
        self.learn_offset = learn_offset
        self.clip = clip

    def build(self, input_shape):
        self.offset = self.add_weight(shape=(input_shape[-1],), initializer="zeros", name="offset",
                                      trainable=self.learn_offset)

    def call(self, inputs):
        return keras.ops.clip(inputs - self.offset, -self.clip, self.clip)

    def get_config(self):
        return {**super().get_config(), "learn_offset": self.learn_offset}


rng = np.random.default_rng(4283)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x @ rng.normal(size=(4, 1))).astype("float32")

inputs = keras.Input((4,))
shifted = FixedOffset(clip=5.0, name="fixed_offset")(inputs)
model = keras.Model(inputs, keras.layers.Dense(1, name="head")(shifted), name="offset_model")
model.compile(optimizer="adam", loss="mse")
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
path = os.path.join(tempfile.mkdtemp(), "offset.keras")
model.save(path)

reloaded = keras.models.load_model(path)
reloaded.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
before = {w.path: w.numpy().copy() for w in reloaded.trainable_weights}
reloaded.fit(x, y, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in reloaded.trainable_weights}
assert len(changed) == 2 and all(changed.values()), changed
assert not reloaded.get_layer("fixed_offset").offset.trainable
