# source: https://github.com/keras-team/keras/issues/4032
# cause: zero-at-runtime
# weights: small/h/kernel, small/h/bias, small/out/kernel, small/out/bias
# mode: fit
# summary: the global dtype policy is pure "float16" (not "mixed_float16"), so fit neither keeps float32 weights nor scales the loss; with a tiny loss weight every gradient underflows to zero and no weight changes
# lint: no (zero at run time: the underflow depends on the values)
import keras
import numpy as np

keras.utils.set_random_seed(0)
keras.mixed_precision.set_global_policy("float16")  # expect: zero-at-runtime primary

rng = np.random.default_rng(4032)
x = rng.normal(size=(64, 8)).astype("float32")
y = np.tanh(x[:, :1]).astype("float32")
model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(16, activation="tanh", name="h"),
                          keras.layers.Dense(1, name="out")], name="small")
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse", loss_weights=1e-7)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
keras.mixed_precision.set_global_policy("float32")
