# summary: the cell returns its new hidden state as the next state, so the recurrence carries information and every weight, the recurrent kernel included, changes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(11891)
x = rng.normal(size=(64, 12, 2)).astype("float32")
y = x[:, :, :1].mean(axis=1).astype("float32")


class LeakyCell(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.state_size = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units), name="recurrent_kernel")

    def call(self, inputs, states):
        prev = states[0]
        h = keras.ops.tanh(keras.ops.matmul(inputs, self.kernel) + keras.ops.matmul(prev, self.recurrent_kernel))
        return h, [h]


model = keras.Sequential([keras.Input((12, 2)), keras.layers.RNN(LeakyCell(8, name="leaky_cell"), name="leaky_rnn"),
                          keras.layers.Dense(1, name="rnn_head")], name="recurrent_model")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
assert len(before) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
