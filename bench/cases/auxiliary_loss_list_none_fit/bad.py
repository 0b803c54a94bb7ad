# source: https://github.com/tensorflow/tensorflow/issues/34713
# cause: not-connected
# weights: aux_head/kernel, aux_head/bias
# mode: fit
# summary: a model with a main and an auxiliary output is compiled with loss=["mse", None] (the auxiliary entry left as None from a single-output template) while labels for both outputs are passed to fit; the auxiliary head reaches no loss and its weights never change
# lint: no (which outputs a loss list leaves out is decided by the model's outputs at run time)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(22485)
x = rng.normal(size=(64, 7)).astype("float32")
main_y = (x[:, :2].sum(axis=1, keepdims=True)).astype("float32")
aux_y = (x[:, 2:4] > 0).astype("float32")

inputs = keras.Input((7,))
shared = keras.layers.Dense(10, activation="relu", name="shared")(inputs)
main = keras.layers.Dense(1, name="main_head")(shared)
aux = keras.layers.Dense(2, activation="sigmoid", name="aux_head")(shared)
model = keras.Model(inputs, [main, aux], name="two_heads")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=["mse", None])  # expect: not-connected primary
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, [main_y, aux_y], epochs=1, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
