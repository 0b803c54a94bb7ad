# summary: a layer clips its activations at their 90th percentile computed with keras.ops.quantile(method="nearest") at a constant level; the threshold is one of the activations, so the gradient flows into it and every weight changes under fit
# source: https://keras.io/api/ops/numpy/#quantile-function
import keras
import numpy as np

keras.utils.set_random_seed(0)


class NinetiethClip(keras.layers.Layer):
    def call(self, inputs):
        threshold = keras.ops.quantile(keras.ops.abs(inputs), 0.9, method="nearest")
        return keras.ops.clip(inputs, -threshold, threshold)


rng = np.random.default_rng(22)
x = rng.normal(size=(64, 6)).astype("float32")
y = np.tanh(x @ rng.normal(size=(6, 1))).astype("float32")

model = keras.Sequential([keras.Input((6,)),
                          keras.layers.Dense(16, name="p90_hidden"),
                          NinetiethClip(name="p90_clip"),
                          keras.layers.Dense(1, name="p90_head")], name="p90_model")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights}
assert len(changed) == 4 and all(changed.values()), changed
