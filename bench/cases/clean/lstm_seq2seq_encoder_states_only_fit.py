# summary: character-level seq2seq: the encoder LSTM's outputs discarded and only its states kept (return_state=True) as the decoder LSTM's initial_state, teacher forcing, a softmax Dense over the decoder sequence, fit
# source: https://keras.io/examples/nlp/lstm_seq2seq/
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(45)
rng = np.random.default_rng(45)
n, t_in, t_out, n_in_tokens, n_out_tokens, latent_dim = 32, 6, 5, 7, 8, 8
encoder_input_data = np.eye(n_in_tokens, dtype="float32")[rng.integers(0, n_in_tokens, size=(n, t_in))]
decoder_target_ids = rng.integers(0, n_out_tokens, size=(n, t_out))
decoder_target_data = np.eye(n_out_tokens, dtype="float32")[decoder_target_ids]
decoder_input_data = np.concatenate([np.zeros((n, 1, n_out_tokens), "float32"), decoder_target_data[:, :-1]], 1)
encoder_inputs = keras.Input(shape=(None, n_in_tokens))
encoder = layers.LSTM(latent_dim, return_state=True, name="encoder_lstm")
encoder_outputs, state_h, state_c = encoder(encoder_inputs)
encoder_states = [state_h, state_c]
decoder_inputs = keras.Input(shape=(None, n_out_tokens))
decoder_lstm = layers.LSTM(latent_dim, return_sequences=True, return_state=True, name="decoder_lstm")
decoder_outputs, _, _ = decoder_lstm(decoder_inputs, initial_state=encoder_states)
decoder_outputs = layers.Dense(n_out_tokens, activation="softmax", name="decoder_dense")(decoder_outputs)
model = keras.Model([encoder_inputs, decoder_inputs], decoder_outputs)
model.compile(optimizer="rmsprop", loss="categorical_crossentropy", metrics=["accuracy"])
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit([encoder_input_data, decoder_input_data], decoder_target_data, batch_size=16, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
