# source: https://github.com/tensorflow/tensorflow/issues/58146
# summary: a sequence model projects each step to 6 features and applies LayerNormalization over that last axis (6 values per step, not 1), so the normalised features still depend on the projection and fit changes every weight
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(58146)
readings = rng.normal(size=(128, 10, 3)).astype("float32")
target = readings[:, -2:, :].mean(axis=(1, 2))[:, None].astype("float32")

model = keras.Sequential([
    keras.Input((10, 3)),
    keras.layers.Dense(6, name="step_proj"),
    keras.layers.LayerNormalization(name="feature_norm"),
    keras.layers.Flatten(),
    keras.layers.Dense(1, name="regress"),
], name="normed_sequence")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(readings, target, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 6
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
