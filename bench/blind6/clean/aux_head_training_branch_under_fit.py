# source: https://keras.io/getting_started/faq/
# summary: a deeply supervised classifier returns its auxiliary head's logits only `if training:` (zeros otherwise) and is trained with fit, which calls the model with training=True, so the auxiliary loss reaches the auxiliary head and every weight changes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(16)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 3, size=64)


class DeepSupervised(keras.Model):
    def __init__(self):
        super().__init__(name="fit_deep_supervised")
        self.trunk = keras.layers.Dense(16, activation="relu", name="fit_trunk")
        self.main_head = keras.layers.Dense(3, name="fit_main_head")
        self.aux_head = keras.layers.Dense(3, name="fit_aux_head")

    def call(self, inputs, training=None):
        h = self.trunk(inputs)
        logits = self.main_head(h)
        aux = self.aux_head(h) if training else tf.zeros_like(logits)
        return {"main": logits, "aux": aux}


model = DeepSupervised()
model(x[:1], training=True)
xent = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss={"main": xent, "aux": xent},
              loss_weights={"main": 1.0, "aux": 0.4})
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, {"main": y, "aux": y}, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)}
assert len(changed) == 6 and all(changed.values()), changed
