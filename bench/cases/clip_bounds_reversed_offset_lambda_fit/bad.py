# source: https://github.com/tensorflow/tensorflow/issues/57151
# cause: zero-at-runtime
# weights: offset/kernel, offset/bias
# mode: fit
# summary: a regressor adds a bounded learned offset to its main output, the offset clipped in a Lambda with keras.ops.clip(t, 0.5, -0.5); TensorFlow accepts a lower bound above the upper one and every clipped value is -0.5, a constant, so the offset head gets exactly zero gradients and never changes while the main head trains
# lint: yes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(57151)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x[:, :1] + 0.3 * np.tanh(x[:, 1:2])).astype("float32")

inputs = keras.Input((4,))
main = keras.layers.Dense(1, name="main")(inputs)
raw = keras.layers.Dense(1, name="offset")(inputs)
bounded = keras.layers.Lambda(lambda t: keras.ops.clip(t, 0.5, -0.5), name="bound")(raw)  # expect: zero-at-runtime primary
model = keras.Model(inputs, keras.layers.Add()([main, bounded]), name="offset_net")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
