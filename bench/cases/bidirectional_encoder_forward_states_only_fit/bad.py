# source: https://github.com/tensorflow/tensorflow/issues/31805
# cause: not-connected
# rule: TM104
# weights: bi_encoder/backward_enc_lstm/lstm_cell/kernel, bi_encoder/backward_enc_lstm/lstm_cell/recurrent_kernel, bi_encoder/backward_enc_lstm/lstm_cell/bias
# mode: fit
# summary: a sequence-to-sequence model with a bidirectional LSTM encoder (return_state=True gives the output, then the forward h, c and the backward h, c, unmerged) starts its decoder from the forward states only; the encoder's output is not used either, so nothing the loss reads comes from the backward LSTM and its weights never change
# lint: no (which outputs a layer returns is its configuration, not visible in the call)
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
dec_seq = keras.layers.LSTM(8, return_sequences=True, name="decoder")(dec_in, initial_state=[fwd_h, fwd_c])  # expect: not-connected primary
model = keras.Model([enc_in, dec_in], keras.layers.Dense(2, name="proj")(dec_seq), name="s2s")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
model.fit([src, tgt_in], tgt_out, epochs=1, batch_size=16, verbose=0)
