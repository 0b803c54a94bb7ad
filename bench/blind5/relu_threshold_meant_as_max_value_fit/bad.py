# source: https://github.com/tensorflow/tensorflow/issues/28230
# cause: zero-at-runtime
# weights: capped/r6_hidden/kernel, capped/r6_hidden/bias, capped/r6_out/kernel
# mode: fit
# summary: the user wants a ReLU6 and writes keras.layers.ReLU(threshold=6.0) instead of max_value=6.0; threshold zeroes every activation below 6, the hidden pre-activations are all far below it, so the layer outputs only zeros and the hidden layer and the head's kernel get exactly zero gradients: fit never changes them
# lint: no (threshold=6.0 is a valid setting: whether it kills everything depends on the values)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(28230)
x = rng.normal(size=(64, 5)).astype("float32")
y = np.abs(x[:, :2]).sum(axis=1, keepdims=True).astype("float32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(16, name="r6_hidden"),
                          keras.layers.ReLU(threshold=6.0, name="r6_act"),  # expect: zero-at-runtime primary
                          keras.layers.Dense(1, name="r6_out")], name="capped")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
