# source: https://github.com/keras-team/keras/issues/16450
# cause: not-connected
# weights: meta_branch/kernel, meta_branch/bias
# mode: fit
# summary: a listing model concatenates 16 text features with an 8-unit metadata branch and then keeps features[:, :16] with a Lambda (the slice width copied from the text-only model); the metadata half is sliced off, so the metadata branch gets no gradient and Keras warns that gradients do not exist for it
# lint: no (the slice bounds are numbers that only make sense against the concatenated width)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(16450)
text = rng.normal(size=(64, 10)).astype("float32")
meta = rng.normal(size=(64, 4)).astype("float32")
y = (text[:, :1] + meta[:, :1]).astype("float32")

text_in, meta_in = keras.Input((10,), name="text"), keras.Input((4,), name="meta")
t = keras.layers.Dense(16, activation="relu", name="text_branch")(text_in)
m = keras.layers.Dense(8, activation="relu", name="meta_branch")(meta_in)
joined = keras.layers.Concatenate(name="joined")([t, m])
kept = keras.layers.Lambda(lambda z: z[:, :16], name="keep_features")(joined)  # expect: not-connected primary
out = keras.layers.Dense(1, name="price")(kept)
model = keras.Model([text_in, meta_in], out, name="listing")
model.compile(optimizer="adam", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit([text, meta], y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
