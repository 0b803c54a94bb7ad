# source: https://www.tensorflow.org/api_docs/python/tf/keras/layers/MultiHeadAttention?hl=cs
# cause: zero-at-runtime
# weights: feature_attention/query/kernel, feature_attention/query/bias, feature_attention/key/kernel, feature_attention/key/bias
# mode: fit
# summary: a tabular model reshapes each row to (1, features) and runs MultiHeadAttention on it as "self-attention over the features"; the sequence has one token, the softmax over one key is exactly 1, and the query and key projections never change under fit (value and output projections train)
# lint: no (the reshape is valid; the attention axis has length 1 only because of it)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(12)
x = rng.normal(size=(64, 6)).astype("float32")
y = (np.sin(x[:, :1]) + x[:, 1:2] * x[:, 2:3]).astype("float32")

inputs = keras.Input((6,))
tokens = keras.layers.Reshape((1, 6))(inputs)  # expect: zero-at-runtime primary
attended = keras.layers.MultiHeadAttention(num_heads=2, key_dim=4, name="feature_attention")(tokens, tokens)
outputs = keras.layers.Dense(1, name="target_head")(keras.layers.Flatten()(attended))
model = keras.Model(inputs, outputs, name="tab_attention")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights})
