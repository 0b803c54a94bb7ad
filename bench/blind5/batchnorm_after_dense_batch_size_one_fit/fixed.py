# summary: the same model is trained with batches of 16, so BatchNormalization normalises over real batch statistics and every weight changes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(3996)
x = rng.normal(size=(48, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, name="bn_dense"),
                          keras.layers.BatchNormalization(name="bn_norm"),
                          keras.layers.ReLU(name="bn_relu"),
                          keras.layers.Dense(1, name="bn_out")], name="bn_reg")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
assert len(before) == 6
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
