# source: https://github.com/qualcomm/aimet/pull/2813
# summary: a two-input model declares its token ids with keras.Input(dtype="int32") and its numeric features as float32; the integer input feeds only the Embedding (ids are data, not a learned quantity), so fit changes every weight of both branches
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2813)
tokens = rng.integers(0, 30, size=(128, 5)).astype("int32")
numeric = rng.normal(size=(128, 3)).astype("float32")
target = (numeric[:, :1] + (tokens[:, :1] % 3)).astype("float32")

token_in = keras.Input((5,), dtype="int32", name="token_ids")
numeric_in = keras.Input((3,), name="numeric")
embedded = keras.layers.GlobalAveragePooling1D()(keras.layers.Embedding(30, 4, name="tok_table")(token_in))
numeric_h = keras.layers.Dense(4, activation="relu", name="num_dense")(numeric_in)
merged = keras.layers.Concatenate()([embedded, numeric_h])
out = keras.layers.Dense(1, name="mixed_out")(merged)
model = keras.Model([token_in, numeric_in], out, name="mixed_inputs")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit([tokens, numeric], target, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 5
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
