# source: https://keras.io/examples/nlp/masked_language_modeling/
# summary: a masked language model trained by fit with sample_weight that is 1 on masked positions and 0 elsewhere (a per-token weight), token ids from the data, the mask positions drawn with NumPy
import numpy as np
import keras

keras.utils.set_random_seed(0)
VOCAB, LEN, MASK_ID = 30, 8, 1
rng = np.random.default_rng(4)
tokens = rng.integers(2, VOCAB, (64, LEN))
chosen = rng.random((64, LEN)) < 0.15
chosen[:, 0] = True  # at least one masked position per sequence
inputs = np.where(chosen, MASK_ID, tokens)
weights = chosen.astype("float32")

inp = keras.Input((LEN,), dtype="int32")
h = keras.layers.Embedding(VOCAB, 16, name="tok")(inp)
h = keras.layers.MultiHeadAttention(2, 8, name="mha")(h, h)
out = keras.layers.Dense(VOCAB, name="lm_head")(h)
model = keras.Model(inp, out)
model.compile(keras.optimizers.Adam(1e-2),
              keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = [w.copy() for w in model.get_weights()]
model.fit(inputs, tokens, sample_weight=weights, epochs=1, batch_size=16, verbose=0)
after = model.get_weights()
assert all(not np.allclose(b, a) for b, a in zip(before, after))
