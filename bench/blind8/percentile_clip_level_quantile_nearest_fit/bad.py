# source: https://www.tensorflow.org/probability/api_docs/python/tfp/stats/percentile
# cause: non-differentiable-op|integer-dtype
# rule: -
# weights: clip_model/percentile_clip/level
# mode: fit
# summary: an outlier-robust regressor clips its hidden activations at a learned percentile of their magnitude, computed with keras.ops.quantile(..., method="nearest"); the nearest method picks a sorted element by a rounded integer index, so the learned level gets no gradient ("Gradients do not exist") and never changes under fit while the dense layers train
# lint: no (quantile with method="nearest" is differentiable in its input; only the level is cut)
import keras
import numpy as np

keras.utils.set_random_seed(0)


class PercentileClip(keras.layers.Layer):
    def build(self, input_shape):
        self.level = self.add_weight(shape=(), initializer=keras.initializers.Constant(1.0), name="level")

    def call(self, inputs):
        threshold = keras.ops.quantile(keras.ops.abs(inputs), keras.ops.sigmoid(self.level), method="nearest")  # expect: non-differentiable-op|integer-dtype primary
        return keras.ops.clip(inputs, -threshold, threshold)


rng = np.random.default_rng(7)
x = rng.normal(size=(64, 6)).astype("float32")
y = (np.tanh(x @ rng.normal(size=(6, 1)))).astype("float32")

model = keras.Sequential([keras.Input((6,)),
                          keras.layers.Dense(16, name="clip_hidden"),
                          PercentileClip(name="percentile_clip"),
                          keras.layers.Dense(1, name="clip_head")], name="clip_model")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights})
