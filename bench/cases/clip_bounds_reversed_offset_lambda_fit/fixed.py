# summary: the offset is clipped to [-0.5, 0.5] (lower bound first), so inside the range it passes through and both heads train
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(57151)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x[:, :1] + 0.3 * np.tanh(x[:, 1:2])).astype("float32")

inputs = keras.Input((4,))
main = keras.layers.Dense(1, name="main")(inputs)
raw = keras.layers.Dense(1, name="offset")(inputs)
bounded = keras.layers.Lambda(lambda t: keras.ops.clip(t, -0.5, 0.5), name="bound")(raw)
model = keras.Model(inputs, keras.layers.Add()([main, bounded]), name="offset_net")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)}
print(changed)
assert all(changed.values())
