# summary: ReLU(max_value=6.0) caps the activations at 6 (a ReLU6), so the hidden units pass their positive values and every weight changes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(28230)
x = rng.normal(size=(64, 5)).astype("float32")
y = np.abs(x[:, :2]).sum(axis=1, keepdims=True).astype("float32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(16, name="r6_hidden"),
                          keras.layers.ReLU(max_value=6.0, name="r6_act"),
                          keras.layers.Dense(1, name="r6_out")], name="capped")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert len(before) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
