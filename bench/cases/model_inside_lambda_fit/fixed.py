# summary: the trunk is called as a layer of the model, so its weights are the model's and train
import numpy as np
import keras

keras.utils.set_random_seed(0)

rng = np.random.default_rng(168)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
trunk = keras.Sequential([keras.Input((6,)), keras.layers.Dense(4, activation="tanh", name="t1")],
                         name="trunk")
inputs = keras.Input((6,))
features = trunk(inputs)
outputs = keras.layers.Dense(1, name="head")(features)
model = keras.Model(inputs, outputs)
model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
