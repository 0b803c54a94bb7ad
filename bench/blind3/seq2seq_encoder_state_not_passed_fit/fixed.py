# summary: the decoder LSTM starts from the encoder's final states (initial_state=[state_h, state_c]), so the encoder is on the loss path and fit changes every weight
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2995)
source_seq = rng.normal(size=(64, 7, 5)).astype("float32")
target_in = rng.normal(size=(64, 6, 4)).astype("float32")
target_out = np.cumsum(source_seq[:, :6, :4], axis=1).astype("float32")


class Seq2Seq(tf.keras.Model):
    def __init__(self):
        super().__init__(name="seq2seq")
        self.encoder = tf.keras.layers.LSTM(8, return_state=True, name="enc_lstm")
        self.decoder = tf.keras.layers.LSTM(8, return_sequences=True, name="dec_lstm")
        self.readout = tf.keras.layers.Dense(4, name="dec_out")

    def call(self, inputs):
        source, shifted_target = inputs
        _, state_h, state_c = self.encoder(source)
        decoded = self.decoder(shifted_target, initial_state=[state_h, state_c])
        return self.readout(decoded)


model = Seq2Seq()
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
model([source_seq[:2], target_in[:2]])
weights = model.trainable_weights
before = [w.numpy().copy() for w in weights]
model.fit([source_seq, target_in], target_out, epochs=2, batch_size=16, verbose=0)
assert len(weights) == 8
assert all(np.any(b != w.numpy()) for b, w in zip(before, weights, strict=True))
