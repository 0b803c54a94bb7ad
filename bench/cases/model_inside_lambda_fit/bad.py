# source: https://github.com/keras-team/keras/issues/9740
# cause: sources-mismatch
# rule: TM115
# weights: trunk/t1/kernel, trunk/t1/bias
# mode: fit
# summary: a feature trunk is called inside a Lambda layer of the model that fit trains; its weights are not the model's
# lint: yes
import numpy as np
import keras

keras.utils.set_random_seed(0)

rng = np.random.default_rng(168)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
trunk = keras.Sequential([keras.Input((6,)), keras.layers.Dense(4, activation="tanh", name="t1")],
                         name="trunk")
inputs = keras.Input((6,))
features = keras.layers.Lambda(lambda t: trunk(t), name="features")(inputs)  # expect: sources-mismatch primary
outputs = keras.layers.Dense(1, name="head")(features)
model = keras.Model(inputs, outputs)
model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
before = trunk.layers[0].kernel.numpy().copy()
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print("trunk changed:", bool(np.any(before != trunk.layers[0].kernel.numpy())))
