# source: https://github.com/keras-team/keras/issues/11891
# cause: zero-at-runtime
# weights: recurrent_model/leaky_rnn/leaky_cell/recurrent_kernel
# mode: fit
# summary: a custom Keras 3 RNN cell computes the new hidden state but returns the incoming state as the next state ([prev] instead of [h]); the state stays at its zero initial value, so the recurrent term is always zero times the recurrent kernel, which gets exactly zero gradients and never changes while the input kernel trains
# lint: no (returning the previous state is valid for some cells: only the values show it is never updated)
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
        return h, [prev]  # expect: zero-at-runtime primary


model = keras.Sequential([keras.Input((12, 2)), keras.layers.RNN(LeakyCell(8, name="leaky_cell"), name="leaky_rnn"),
                          keras.layers.Dense(1, name="rnn_head")], name="recurrent_model")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
