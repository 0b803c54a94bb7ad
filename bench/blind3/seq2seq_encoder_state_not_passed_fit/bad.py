# source: https://github.com/keras-team/keras/issues/2995
# cause: not-connected
# weights: seq2seq/enc_lstm/lstm_cell/kernel, seq2seq/enc_lstm/lstm_cell/recurrent_kernel, seq2seq/enc_lstm/lstm_cell/bias
# mode: fit
# summary: a subclassed encoder-decoder runs the encoder LSTM and keeps its final states, but the decoder LSTM is called without initial_state; the encoder is on no path to the loss, its gradients are None, and fit never changes it
# lint: yes
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
        decoded = self.decoder(shifted_target)  # expect: not-connected primary
        return self.readout(decoded)


model = Seq2Seq()
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
model([source_seq[:2], target_in[:2]])
before = [w.numpy().copy() for w in model.encoder.trainable_weights]
model.fit([source_seq, target_in], target_out, epochs=2, batch_size=16, verbose=0)
print("encoder changed:",
      [bool(np.any(b != w.numpy())) for b, w in zip(before, model.encoder.trainable_weights)])
