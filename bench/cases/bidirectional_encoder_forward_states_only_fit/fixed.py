# summary: the decoder (twice as wide) starts from both directions' states, concatenated
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(31805)
src = rng.normal(size=(48, 7, 3)).astype("float32")
tgt_in = rng.normal(size=(48, 5, 2)).astype("float32")
tgt_out = np.cumsum(tgt_in, axis=1).astype("float32")

enc_in = keras.Input((7, 3))
dec_in = keras.Input((5, 2))
_, fwd_h, fwd_c, bwd_h, bwd_c = keras.layers.Bidirectional(
    keras.layers.LSTM(8, return_state=True, name="enc_lstm"), name="bi_encoder")(enc_in)
state = [keras.layers.Concatenate()([fwd_h, bwd_h]), keras.layers.Concatenate()([fwd_c, bwd_c])]
dec_seq = keras.layers.LSTM(16, return_sequences=True, name="decoder")(dec_in, initial_state=state)
model = keras.Model([enc_in, dec_in], keras.layers.Dense(2, name="proj")(dec_seq), name="s2s")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
model.fit([src, tgt_in], tgt_out, epochs=1, batch_size=16, verbose=0)
