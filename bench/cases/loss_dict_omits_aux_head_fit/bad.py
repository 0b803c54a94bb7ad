# source: https://github.com/tensorflow/tensorflow/issues/22485
# cause: not-connected
# weights: aux_head/kernel, aux_head/bias
# mode: fit
# summary: a rating model with a main score and an auxiliary genre head (a dict of named outputs) is compiled with a loss dict that names only the main score while the genre labels are still passed to fit; Keras computes no loss for the genre head, warns that gradients do not exist for it, and its weights never change
# lint: yes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(22485)
x = rng.normal(size=(64, 7)).astype("float32")
score = (x[:, :1] * 0.5 + x[:, 1:2]).astype("float32")
genre = rng.integers(0, 4, size=(64,))

inputs = keras.Input((7,))
h = keras.layers.Dense(10, activation="relu", name="shared")(inputs)
outputs = {"score": keras.layers.Dense(1, name="score_head")(h),
           "genre": keras.layers.Dense(4, name="aux_head")(h)}
model = keras.Model(inputs, outputs, name="ratings")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss={"score": "mse"})  # expect: not-connected primary
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, {"score": score, "genre": genre}, epochs=1, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
