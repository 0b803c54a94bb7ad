# summary: each feature becomes a token (reshape to (features, 1) and a shared Dense embedding), so attention runs over six tokens and every weight changes under fit
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(12)
x = rng.normal(size=(64, 6)).astype("float32")
y = (np.sin(x[:, :1]) + x[:, 1:2] * x[:, 2:3]).astype("float32")

inputs = keras.Input((6,))
tokens = keras.layers.Dense(6, name="feature_embedding")(keras.layers.Reshape((6, 1))(inputs))
attended = keras.layers.MultiHeadAttention(num_heads=2, key_dim=4, name="feature_attention")(tokens, tokens)
outputs = keras.layers.Dense(1, name="target_head")(keras.layers.Flatten()(attended))
model = keras.Model(inputs, outputs, name="tab_attention")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights}
assert len(changed) == 12 and all(changed.values()), changed
